package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.meta.CoreRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The rules of one device of a slice (validateDevice): its name, how many attributes, capacities
 * and attribute values it has, each attribute and capacity, its taints, counter consumptions,
 * node selection, binding conditions and node allocatable resources. Stateless.
 */
final class DeviceValidation {

  /** Attribute and capacity names longer than a domain, a slash and an identifier are shortened. */
  private static final int QUALIFIED_NAME_PATH_LENGTH = ResourceLimits.DEVICE_MAX_DOMAIN_LENGTH + 1
      + ResourceLimits.DEVICE_MAX_ID_LENGTH;

  private static final String PER_DEVICE_ONE_OF = "exactly one of `nodeName`, `nodeSelector`, or "
      + "`allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice "
      + "spec";

  private DeviceValidation() {}

  /**
   * validateDevice.
   *
   * @param device the device, may be null (then it is checked as an empty device)
   * @param old the stored device of the same name, or null on create or for a new device
   * @param perDeviceNodeSelection the slice's {@code perDeviceNodeSelection}, may be null
   * @param path the device's path, {@code spec.devices[i]}
   * @return the errors
   */
  static List<FieldError> device(Device device, Device old, Boolean perDeviceNodeSelection,
      FieldPath path) {
    Device value = device == null ? new Device() : device;
    List<FieldError> errors = new ArrayList<>(DeviceFieldRules.deviceName(
        value.getName() == null ? "" : value.getName(), path.child("name")));
    int described = size(value.getAttributes()) + size(value.getCapacity());
    if (described > ResourceLimits.SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE) {
      errors.add(Errors.invalid(path, described, "the total number of attributes and capacities "
          + "must not exceed " + ResourceLimits.SLICE_MAX_ATTRIBUTES_AND_CAPACITIES_PER_DEVICE));
    }
    int values = AttributeValidation.valueCount(value);
    if (values > ResourceLimits.SLICE_MAX_ATTRIBUTE_VALUES_PER_DEVICE) {
      errors.add(Errors.invalid(path, values, "the total number of attribute values must not "
          + "exceed " + ResourceLimits.SLICE_MAX_ATTRIBUTE_VALUES_PER_DEVICE));
    }
    errors.addAll(Collections.map(value.getAttributes(), -1, QUALIFIED_NAME_PATH_LENGTH,
        DeviceFieldRules::qualifiedName, AttributeValidation::attribute, path.child("attributes")));
    // Kubernetes 1.37: an unchanged capacity map of a stored device is not checked again.
    boolean multiple = Boolean.TRUE.equals(value.getAllowMultipleAllocations());
    errors.addAll(Collections.map(value.getCapacity(), -1, QUALIFIED_NAME_PATH_LENGTH,
        DeviceFieldRules::qualifiedName,
        (capacity, capacityPath) -> DeviceCapacityValidation.capacity(capacity, multiple,
            capacityPath),
        path.child("capacity")));
    if (old == null || !sameTaints(old.getTaints(), value.getTaints())) {
      errors.addAll(Collections.list(value.getTaints(), ResourceLimits.DEVICE_TAINTS_MAX,
          (taint, taintPath) -> DeviceFieldRules.taint(taint == null ? new DeviceTaint() : taint,
              null, taintPath),
          path.child("taints")));
    }
    errors.addAll(CounterValidation.consumptions(value.getConsumesCounters(),
        path.child("consumesCounters")));
    errors.addAll(nodeSelection(value, perDeviceNodeSelection, path));
    errors.addAll(DeviceFieldRules.bindingParameters(value.getBindingConditions(),
        value.getBindingFailureConditions(), path));
    errors.addAll(NodeAllocatableValidation.resources(value.getNodeAllocatableResources(),
        value.getCapacity(), path.child("nodeAllocatableResources")));
    return errors;
  }

  private static List<FieldError> nodeSelection(Device device, Boolean perDeviceNodeSelection,
      FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (!Boolean.TRUE.equals(perDeviceNodeSelection)) {
      if (device.getNodeName() != null || device.getNodeSelector() != null
          || device.getAllNodes() != null) {
        errors.add(Errors.invalid(path, null, "`nodeName`, `nodeSelector` and "
            + "`allNodes` can only be set if `perDeviceNodeSelection` is set to true in the "
            + "ResourceSlice spec"));
      }
      return errors;
    }
    List<String> set = new ArrayList<>();
    if (device.getNodeName() != null) {
      if (device.getNodeName().isEmpty()) {
        errors.add(Errors.invalid(path.child("nodeName"), "", "must not be empty"));
      } else {
        set.add("`nodeName`");
        errors.addAll(CoreRules.nodeName(device.getNodeName(), path.child("nodeName")));
      }
    }
    if (device.getNodeSelector() != null) {
      set.add("`nodeSelector`");
      errors.addAll(CoreRules.nodeSelector(device.getNodeSelector(), path.child("nodeSelector")));
    }
    if (device.getAllNodes() != null) {
      if (device.getAllNodes()) {
        set.add("`allNodes`");
      } else {
        errors.add(Errors.invalid(path.child("allNodes"), false,
            "must be either unset or set to true"));
      }
    }
    if (set.isEmpty()) {
      errors.add(Errors.required(path, PER_DEVICE_ONE_OF));
    } else if (set.size() > 1) {
      errors.add(Errors.invalid(path, "{" + String.join(", ", set) + "}", PER_DEVICE_ONE_OF));
    }
    return errors;
  }

  // The server compares taints semantically; an empty and an absent list are equal.
  private static boolean sameTaints(List<DeviceTaint> old, List<DeviceTaint> taints) {
    List<DeviceTaint> a = old == null ? List.of() : old;
    List<DeviceTaint> b = taints == null ? List.of() : taints;
    return Objects.equals(a, b);
  }

  private static int size(Map<?, ?> map) {
    return map == null ? 0 : map.size();
  }
}
