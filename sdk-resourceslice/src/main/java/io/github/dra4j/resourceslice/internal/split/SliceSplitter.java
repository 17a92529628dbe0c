package io.github.dra4j.resourceslice.internal.split;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.github.dra4j.resourceslice.Slice;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a flat device list and counter sets into slices that respect the API limits. The result
 * depends only on the input, so an unchanged list always gives the same slices (and, published,
 * the same slice names):
 *
 * <ul>
 *   <li>devices keep their order and are cut into consecutive slices of equal size: 128 devices,
 *       or 64 as soon as any device of the pool has taints or consumes counters (or the caller
 *       says devices may be tainted). One size per pool keeps the slice count stable when a
 *       device changes, so a changed device rewrites only its own slice;
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
        ? SliceLimits.MAX_DEVICES_WITH_TAINTS_OR_COUNTERS
        : SliceLimits.MAX_DEVICES;
    List<Slice> slices = new ArrayList<>();
    for (int from = 0; from < devices.size(); from += size) {
      List<Device> chunk = devices.subList(from, Math.min(devices.size(), from + size));
      slices.add(new Slice(chunk, List.of(), perDeviceNodeSelection));
    }
    for (int from = 0; from < counterSets.size(); from += SliceLimits.MAX_COUNTER_SETS) {
      List<CounterSet> chunk =
          counterSets.subList(from, Math.min(counterSets.size(), from + SliceLimits.MAX_COUNTER_SETS));
      slices.add(new Slice(List.of(), chunk, perDeviceNodeSelection));
    }
    if (slices.isEmpty()) {
      slices.add(new Slice(List.of(), List.of(), perDeviceNodeSelection));
    }
    return slices;
  }

  /**
   * Tells whether a device lowers its slice's limit to 64 devices.
   *
   * @param device the device
   * @return true if it has taints or consumes counters
   */
  public static boolean isRestricted(Device device) {
    return device.getTaints() != null && !device.getTaints().isEmpty()
        || device.getConsumesCounters() != null && !device.getConsumesCounters().isEmpty();
  }
}
