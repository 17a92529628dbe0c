package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of shared counter sets (validateCounterSet) and of a device's counter consumptions
 * (validateDeviceCounterConsumption): names that are DNS labels, at least one counter, at most
 * 32 counters each, counter names that are DNS labels. Any counter value is accepted. Stateless.
 */
final class CounterValidation {

  /** Counter names longer than a DNS label are shortened in field paths. */
  private static final int COUNTER_NAME_PATH_LENGTH = 63;

  private CounterValidation() {}

  /**
   * The shared counter sets of a slice: at most 8, each valid, names unique.
   *
   * @param sets the sets, may be null
   * @param path {@code spec.sharedCounters}
   * @return the errors
   */
  static List<FieldError> counterSets(List<CounterSet> sets, FieldPath path) {
    return Collections.set(sets, ResourceLimits.SLICE_MAX_COUNTER_SETS,
        CounterValidation::counterSet, set -> set == null ? "" : nullToEmpty(set.getName()), path);
  }

  /**
   * The counter consumptions of a device: at most 2, each valid, counter sets unique.
   *
   * @param consumptions the consumptions, may be null
   * @param path {@code spec.devices[i].consumesCounters}
   * @return the errors
   */
  static List<FieldError> consumptions(List<DeviceCounterConsumption> consumptions,
      FieldPath path) {
    return Collections.set(consumptions, ResourceLimits.SLICE_MAX_COUNTER_CONSUMPTIONS_PER_DEVICE,
        CounterValidation::consumption,
        consumption -> consumption == null ? "" : nullToEmpty(consumption.getCounterSet()), path);
  }

  private static List<FieldError> counterSet(CounterSet set, FieldPath path) {
    CounterSet value = set == null ? new CounterSet() : set;
    List<FieldError> errors = new ArrayList<>(name(value.getName(), path.child("name")));
    if (value.getCounters() == null || value.getCounters().isEmpty()) {
      errors.add(Errors.required(path.child("counters"), ""));
    } else {
      errors.addAll(Collections.map(value.getCounters(),
          ResourceLimits.SLICE_MAX_COUNTERS_PER_COUNTER_SET, COUNTER_NAME_PATH_LENGTH,
          DeviceFieldRules::counterName, (counter, counterPath) -> List.of(),
          path.child("counters")));
    }
    return errors;
  }

  private static List<FieldError> consumption(DeviceCounterConsumption consumption,
      FieldPath path) {
    DeviceCounterConsumption value = consumption == null ? new DeviceCounterConsumption()
        : consumption;
    List<FieldError> errors = new ArrayList<>(
        name(value.getCounterSet(), path.child("counterSet")));
    if (value.getCounters() == null || value.getCounters().isEmpty()) {
      errors.add(Errors.required(path.child("counters"), ""));
    } else {
      errors.addAll(Collections.map(value.getCounters(),
          ResourceLimits.SLICE_MAX_COUNTERS_PER_CONSUMPTION, COUNTER_NAME_PATH_LENGTH,
          DeviceFieldRules::counterName, (counter, counterPath) -> List.of(),
          path.child("counters")));
    }
    // compatibilityGroups (Kubernetes 1.37, DRADeviceCompatibilityGroups) has no rules here: the
    // field did not exist in 1.36 and is dropped on write.
    return errors;
  }

  private static List<FieldError> name(String name, FieldPath path) {
    if (name == null || name.isEmpty()) {
      return List.of(Errors.required(path, ""));
    }
    return DeviceFieldRules.counterName(name, path);
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
