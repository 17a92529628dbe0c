package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.cel.SelectorDevice;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One device of a gathered pool, with its slice, its parsed quantities and (built on first use)
 * its CEL view. Owned by one allocation attempt (single thread); not shared between attempts.
 */
final class PoolDevice {

  private final DeviceId id;
  private final Device device;
  private final ResourceSlice slice;
  private final Map<String, CapacityPolicy.Capacity> capacity;
  private final Map<String, Map<String, QuantityValue>> counterUse;
  private int position = -1;
  private int ordinal = -1;
  private SelectorDevice selectorView;

  private PoolDevice(
      DeviceId id,
      Device device,
      ResourceSlice slice,
      Map<String, CapacityPolicy.Capacity> capacity,
      Map<String, Map<String, QuantityValue>> counterUse) {
    this.id = id;
    this.device = device;
    this.slice = slice;
    this.capacity = capacity;
    this.counterUse = counterUse;
  }

  /**
   * Reads a device of a slice.
   *
   * @throws IllegalArgumentException naming the device, field and value when a capacity or
   *     counter quantity is not a quantity
   */
  static PoolDevice of(ResourceSlice slice, Device device) {
    String driver = slice.getSpec().getDriver();
    String pool = slice.getSpec().getPool().getName();
    DeviceId id = new DeviceId(driver, pool, device.getName());
    Map<String, CapacityPolicy.Capacity> capacity = new TreeMap<>();
    for (Map.Entry<String, DeviceCapacity> e : nonNull(device.getCapacity()).entrySet()) {
      capacity.put(e.getKey(),
          CapacityPolicy.Capacity.of("device " + id + ": capacity " + e.getKey(), e.getValue()));
    }
    Map<String, Map<String, QuantityValue>> counters = new LinkedHashMap<>();
    for (DeviceCounterConsumption use : NodeSelection.nonNull(device.getConsumesCounters())) {
      Map<String, QuantityValue> amounts = counters
          .computeIfAbsent(String.valueOf(use.getCounterSet()), k -> new LinkedHashMap<>());
      amounts.putAll(counters("device " + id + ": consumesCounters " + use.getCounterSet(),
          use.getCounters()));
    }
    return new PoolDevice(id, device, slice, capacity, counters);
  }

  /** Parses the counters of a counter set or a consumption. */
  static Map<String, QuantityValue> counters(String field, Map<String, Counter> counters) {
    Map<String, QuantityValue> parsed = new LinkedHashMap<>();
    for (Map.Entry<String, Counter> c : nonNull(counters).entrySet()) {
      parsed.put(
          c.getKey(),
          Quantities.parse(
              c.getValue() == null ? null : c.getValue().getValue(),
              field + " counter " + c.getKey()));
    }
    return parsed;
  }

  /** Parses a slice's counter set. */
  static Map<String, QuantityValue> counterSet(ResourceSlice slice, CounterSet set) {
    return counters(
        "slice " + slice.getMetadata().getName() + ": counter set " + set.getName(),
        set.getCounters());
  }

  private static <K, V> Map<K, V> nonNull(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }

  DeviceId id() {
    return id;
  }

  Device device() {
    return device;
  }

  ResourceSlice slice() {
    return slice;
  }

  Map<String, CapacityPolicy.Capacity> capacity() {
    return capacity;
  }

  /** Counter set name to (counter name to amount). */
  Map<String, Map<String, QuantityValue>> counterUse() {
    return counterUse;
  }

  boolean shareable(AllocatorFeatures features) {
    return features.consumableCapacity()
        && Boolean.TRUE.equals(device.getAllowMultipleAllocations());
  }

  List<String> bindingConditions() {
    return NodeSelection.nonNull(device.getBindingConditions());
  }

  /** The scan position of this device among all allocatable devices (S2), -1 if none. */
  int position() {
    return position;
  }

  /** A number unique among the devices of one attempt, for caches. */
  int ordinal() {
    return ordinal;
  }

  void place(int position, int ordinal) {
    this.position = position;
    this.ordinal = ordinal;
  }

  boolean perDeviceNodeSelection() {
    return Boolean.TRUE.equals(slice.getSpec().getPerDeviceNodeSelection());
  }

  /**
   * Returns the device as selectors see it, built on first use.
   *
   * @param listTypeAttributes whether list-valued attributes are read (the allocator's setting of
   *     {@code DRAListTypeAttributes}; the same for every call within one attempt)
   */
  SelectorDevice selectorView(boolean listTypeAttributes) {
    if (selectorView == null) {
      selectorView = SelectorDevice.of(id.driver(), device, listTypeAttributes);
    }
    return selectorView;
  }
}
