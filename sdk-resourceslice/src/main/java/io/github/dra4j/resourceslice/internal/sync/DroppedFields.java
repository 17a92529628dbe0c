package io.github.dra4j.resourceslice.internal.sync;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Names the feature gates whose fields the API server dropped from a slice (its feature is off), checked in
 * this order, each at most once: {@code DRADeviceTaints} (a device has fewer taints), {@code
 * DRAPartitionableDevices} (per-device node selection lost, fewer counter sets, or a device's
 * counter consumption count differs), {@code DRADeviceBindingConditions} (binding or binding
 * failure condition counts differ), {@code DRAConsumableCapacity} ({@code
 * allowMultipleAllocations} lost). Stateless.
 */
public final class DroppedFields {

  private DroppedFields() {}

  /**
   * Detects the features.
   *
   * @param desired what was sent
   * @param actual what the server stored
   * @return the feature names; empty if none can be named
   */
  public static List<String> detect(DesiredSlice desired, ResourceSliceSpec actual) {
    List<Device> wanted = desired.devices();
    List<Device> stored = orEmpty(actual.getDevices());
    int common = Math.min(wanted.size(), stored.size());
    List<String> features = new ArrayList<>();
    boolean taints = false;
    boolean counters = (desired.perDeviceNodeSelection() != null
        && actual.getPerDeviceNodeSelection() == null)
        || size(actual.getSharedCounters()) < size(desired.sharedCounters());
    boolean binding = false;
    boolean consumable = false;
    for (int i = 0; i < common; i++) {
      Device w = wanted.get(i);
      Device s = stored.get(i);
      taints |= size(s.getTaints()) < size(w.getTaints());
      counters |= size(w.getConsumesCounters()) != size(s.getConsumesCounters());
      binding |= size(w.getBindingConditions()) != size(s.getBindingConditions())
          || size(w.getBindingFailureConditions()) != size(s.getBindingFailureConditions());
      consumable |= w.getAllowMultipleAllocations() != null
          && s.getAllowMultipleAllocations() == null;
    }
    if (taints) {
      features.add("DRADeviceTaints");
    }
    if (counters) {
      features.add("DRAPartitionableDevices");
    }
    if (binding) {
      features.add("DRADeviceBindingConditions");
    }
    if (consumable) {
      features.add("DRAConsumableCapacity");
    }
    return features;
  }

  private static int size(List<?> list) {
    return list == null ? 0 : list.size();
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return Objects.requireNonNullElse(list, List.of());
  }
}
