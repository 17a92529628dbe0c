package io.github.dra4j.resourceslice.internal.split;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceslice.Slice;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a flat device list and counter sets into slices that respect the API limits ({@link
 * ResourceLimits}). The result
 * depends only on the input, so an unchanged list always gives the same slices (and, published,
 * the same slice names):
 *
 * <ul>
 *   <li>devices keep their order and are cut into consecutive slices of equal size: 128 devices,
 *       or 64 as soon as any device of the pool has taints, consumes counters or has a list
 *       attribute (or the caller says devices may be tainted). One size per pool keeps the slice
 *       count stable when a device changes, so a changed device rewrites only its own slice;
 *   <li>counter sets follow in slices of their own, 8 per slice (a slice holds devices or
 *       counter sets, not both);
 *   <li>an empty pool gets one empty slice, which tells consumers the driver is up.
 * </ul>
 *
 * <p>Every slice gets the same {@code perDeviceNodeSelection}. Stateless.
 */
public final class SliceSplitter {

  private SliceSplitter() {}

  /**
   * Splits a pool.
   *
   * @param devices the devices in allocation-priority order
   * @param counterSets the shared counter sets
   * @param perDeviceNodeSelection value for every slice (null: unset)
   * @param devicesMayBeTainted cut at 64 devices even if no device has taints or counters yet
   * @return the slices in index order
   */
  public static List<Slice> split(
      List<Device> devices,
      List<CounterSet> counterSets,
      Boolean perDeviceNodeSelection,
      boolean devicesMayBeTainted) {
    int size = devicesMayBeTainted || devices.stream().anyMatch(SliceSplitter::isRestricted)
        ? ResourceLimits.SLICE_MAX_DEVICES_WITH_ADVANCED_FEATURES
        : ResourceLimits.SLICE_MAX_DEVICES;
    List<Slice> slices = new ArrayList<>();
    for (int from = 0; from < devices.size(); from += size) {
      List<Device> chunk = devices.subList(from, Math.min(devices.size(), from + size));
      slices.add(new Slice(chunk, List.of(), perDeviceNodeSelection));
    }
    int sets = ResourceLimits.SLICE_MAX_COUNTER_SETS;
    for (int from = 0; from < counterSets.size(); from += sets) {
      List<CounterSet> chunk = counterSets.subList(from, Math.min(counterSets.size(), from + sets));
      slices.add(new Slice(List.of(), chunk, perDeviceNodeSelection));
    }
    if (slices.isEmpty()) {
      slices.add(new Slice(List.of(), List.of(), perDeviceNodeSelection));
    }
    return slices;
  }

  /**
   * Tells whether a device lowers its slice's limit to 64 devices, as the API server decides it:
   * taints, counter consumptions or an attribute with a list value ({@code bools}, {@code ints},
   * {@code strings}, {@code versions}; a server with the list-attribute feature off drops such
   * values, one with it on counts them).
   *
   * @param device the device
   * @return true if it has taints, consumes counters or has a list attribute
   */
  public static boolean isRestricted(Device device) {
    return present(device.getTaints()) || present(device.getConsumesCounters())
        || (device.getAttributes() != null && device.getAttributes().values().stream()
            .anyMatch(a -> a != null && (present(a.getBools()) || present(a.getInts())
                || present(a.getStrings()) || present(a.getVersions()))));
  }

  private static boolean present(List<?> list) {
    return list != null && !list.isEmpty();
  }
}
