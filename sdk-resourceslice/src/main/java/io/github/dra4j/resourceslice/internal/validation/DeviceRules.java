package io.github.dra4j.resourceslice.internal.validation;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.resourceslice.internal.split.SliceLimits;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The per-device API rules of a ResourceSlice (names, limits, values, node selection). Stateless. */
final class DeviceRules {

  /** Strict semantic version 2.0.0, as the API server and CEL parse versions. */
  private static final Pattern SEMVER = Pattern.compile(
      "(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
          + "(-((0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(\\.(0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
          + "(\\+([0-9a-zA-Z-]+(\\.[0-9a-zA-Z-]+)*))?");
  private static final Set<String> TAINT_EFFECTS = Set.of("NoSchedule", "NoExecute", "None");

  private DeviceRules() {}

  static void check(String where, Device device, boolean perDeviceNodeSelection,
      List<String> violations) {
    NameRules.dnsLabel(device.getName()).ifPresent(p -> violations.add(where + ": name: " + p));
    Map<String, DeviceAttribute> attributes = PoolValidator.nullSafe(device.getAttributes());
    Map<String, DeviceCapacity> capacity = PoolValidator.nullSafe(device.getCapacity());
    int described = attributes.size() + capacity.size();
    if (described > SliceLimits.MAX_ATTRIBUTES_AND_CAPACITIES) {
      violations.add(where + ": attributes and capacity: Too many: " + described
          + ": must have at most " + SliceLimits.MAX_ATTRIBUTES_AND_CAPACITIES + " items together");
    }
    attributes.forEach((name, value) -> attribute(where, name, value, violations));
    capacity.forEach((name, value) -> {
      String field = where + ": capacity[\"" + name + "\"]";
      NameRules.qualifiedName(name).ifPresent(p -> violations.add(field + ": " + p));
      if (value == null || value.getValue() == null) {
        violations.add(field + ".value: Required value");
      }
    });
    taints(where, PoolValidator.nullSafe(device.getTaints()), violations);
    consumption(where, PoolValidator.nullSafe(device.getConsumesCounters()), violations);
    count(where, "bindingConditions", device.getBindingConditions(),
        SliceLimits.MAX_BINDING_CONDITIONS, violations);
    count(where, "bindingFailureConditions", device.getBindingFailureConditions(),
        SliceLimits.MAX_BINDING_CONDITIONS, violations);
    nodeSelection(where, device, perDeviceNodeSelection, violations);
  }

  private static void attribute(String where, String name, DeviceAttribute value,
      List<String> violations) {
    String field = where + ": attributes[\"" + name + "\"]";
    NameRules.qualifiedName(name).ifPresent(p -> violations.add(field + ": " + p));
    if (value == null) {
      violations.add(field + ": Required value: exactly one value must be set");
      return;
    }
    List<String> set = new ArrayList<>();
    if (value.getInt() != null) {
      set.add("int");
    }
    if (value.getBool() != null) {
      set.add("bool");
    }
    if (value.getString() != null) {
      set.add("string");
    }
    if (value.getVersion() != null) {
      set.add("version");
    }
    for (var list : List.of(Map.entry("ints", PoolValidator.nullSafe(value.getInts())),
        Map.entry("bools", PoolValidator.nullSafe(value.getBools())),
        Map.entry("strings", PoolValidator.nullSafe(value.getStrings())),
        Map.entry("versions", PoolValidator.nullSafe(value.getVersions())))) {
      if (!list.getValue().isEmpty()) {
        set.add(list.getKey());
      }
    }
    if (set.size() != 1) {
      violations.add(field + ": Invalid value: " + (set.isEmpty() ? "none" : String.join(", ", set))
          + ": exactly one value must be set");
    }
    if (value.getString() != null
        && value.getString().length() > SliceLimits.MAX_ATTRIBUTE_VALUE_LENGTH) {
      violations.add(field + ".string: Too long: may not be more than "
          + SliceLimits.MAX_ATTRIBUTE_VALUE_LENGTH + " characters, got "
          + value.getString().length());
    }
    String version = value.getVersion();
    if (version != null) {
      if (version.length() > SliceLimits.MAX_ATTRIBUTE_VALUE_LENGTH) {
        violations.add(field + ".version: Too long: may not be more than "
            + SliceLimits.MAX_ATTRIBUTE_VALUE_LENGTH + " characters, got " + version.length());
      } else if (!SEMVER.matcher(version).matches()) {
        violations.add(field + ".version: Invalid value: \"" + version
            + "\": must be a semantic version 2.0.0");
      }
    }
  }

  private static void taints(String where, List<DeviceTaint> taints, List<String> violations) {
    if (taints.size() > SliceLimits.MAX_TAINTS) {
      violations.add(where + ": taints: Too many: " + taints.size() + ": must have at most "
          + SliceLimits.MAX_TAINTS + " items");
    }
    for (int i = 0; i < taints.size(); i++) {
      DeviceTaint taint = taints.get(i);
      String field = where + ": taints[" + i + "]";
      NameRules.labelKey(taint.getKey()).ifPresent(p -> violations.add(field + ".key: " + p));
      NameRules.labelValue(taint.getValue()).ifPresent(p -> violations.add(field + ".value: " + p));
      if (!TAINT_EFFECTS.contains(taint.getEffect())) {
        violations.add(field + ".effect: Unsupported value: \"" + taint.getEffect()
            + "\": supported values: \"NoExecute\", \"NoSchedule\", \"None\"");
      }
      if (taint.getTimeAdded() != null) {
        try {
          Instant.parse(taint.getTimeAdded());
        } catch (DateTimeParseException e) {
          violations.add(field + ".timeAdded: Invalid value: \"" + taint.getTimeAdded()
              + "\": must be an RFC 3339 time");
        }
      }
    }
  }

  private static void consumption(String where, List<DeviceCounterConsumption> consumptions,
      List<String> violations) {
    if (consumptions.size() > SliceLimits.MAX_COUNTER_CONSUMPTIONS) {
      violations.add(where + ": consumesCounters: Too many: " + consumptions.size()
          + ": must have at most " + SliceLimits.MAX_COUNTER_CONSUMPTIONS + " items");
    }
    for (int index = 0; index < consumptions.size(); index++) {
      int i = index;
      var counters = PoolValidator.nullSafe(consumptions.get(i).getCounters());
      if (counters.size() > SliceLimits.MAX_COUNTERS_PER_CONSUMPTION) {
        violations.add(where + ": consumesCounters[" + i + "].counters: Too many: "
            + counters.size() + ": must have at most " + SliceLimits.MAX_COUNTERS_PER_CONSUMPTION
            + " items");
      }
      counters.forEach((name, counter) -> {
        Quantity value = counter == null ? null : counter.getValue();
        if (value == null) {
          violations.add(where + ": consumesCounters[" + "" + i + "].counters[\"" + name
              + "\"].value: Required value");
        }
      });
    }
  }

  private static void count(String where, String field, List<String> values, int max,
      List<String> violations) {
    int size = values == null ? 0 : values.size();
    if (size > max) {
      violations.add(where + ": " + field + ": Too many: " + size + ": must have at most " + max
          + " items");
    }
  }

  private static void nodeSelection(String where, Device device, boolean perDevice,
      List<String> violations) {
    List<String> set = new ArrayList<>();
    if (device.getNodeName() != null && !device.getNodeName().isEmpty()) {
      set.add("nodeName");
    }
    if (device.getNodeSelector() != null) {
      set.add("nodeSelector");
    }
    if (Boolean.TRUE.equals(device.getAllNodes())) {
      set.add("allNodes");
    }
    if (perDevice && set.size() != 1) {
      violations.add(where + ": node selection: with perDeviceNodeSelection exactly one of"
          + " nodeName, nodeSelector, allNodes must be set on the device, found "
          + (set.isEmpty() ? "none" : String.join(", ", set)));
    } else if (!perDevice && !set.isEmpty()) {
      violations.add(where + ": node selection: " + String.join(", ", set)
          + " may only be set on a device when the slice sets perDeviceNodeSelection");
    }
  }
}
