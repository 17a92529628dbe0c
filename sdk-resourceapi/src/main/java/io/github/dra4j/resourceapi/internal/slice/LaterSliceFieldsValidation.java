package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rules of two slice fields that Kubernetes 1.36 does not have and drops on write, as
 * Kubernetes 1.37 checks them: {@code partitionTypeAttribute} (DRAPartitionableDevicesType) and
 * {@code skipNodeOperations} (DRAOptionalNodeOperations). They matter only once a later release
 * is emulated. Stateless.
 */
final class LaterSliceFieldsValidation {

  private static final String PREPARE = "NodePrepareResources";
  private static final String UNPREPARE = "NodeUnprepareResources";
  private static final String ALL = "*";

  private LaterSliceFieldsValidation() {}

  /**
   * validatePartitionTypeAttribute: only on a slice with devices that consume counters, and then
   * every such device carries the named attribute as a string (a name in the driver's domain may
   * be written without it on the device).
   *
   * @param spec the slice's spec
   * @param path {@code spec}
   * @return the errors
   */
  static List<FieldError> partitionTypeAttribute(ResourceSliceSpec spec, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    String name = spec.getPartitionTypeAttribute();
    if (name == null) {
      return errors;
    }
    FieldPath fieldPath = path.child("partitionTypeAttribute");
    List<Device> devices = spec.getDevices() == null ? List.of() : spec.getDevices();
    boolean consumes = devices.stream().anyMatch(LaterSliceFieldsValidation::consumesCounters);
    if (!consumes) {
      errors.add(Errors.invalid(fieldPath, name,
          "may only be set on a slice which declares devices that consume counters"));
      return errors;
    }
    // Kubernetes 1.37 checks the name's format declaratively, then looks no further.
    List<FieldError> format = DeviceFieldRules.fullyQualifiedName(name, fieldPath);
    if (!format.isEmpty()) {
      errors.addAll(format);
      return errors;
    }
    String driverPrefix = (spec.getDriver() == null ? "" : spec.getDriver()) + "/";
    String bareName = name.startsWith(driverPrefix) ? name.substring(driverPrefix.length()) : "";
    for (int i = 0; i < devices.size(); i++) {
      Device device = devices.get(i);
      if (!consumesCounters(device)) {
        continue;
      }
      FieldPath attributePath = path.child("devices").index(i).child("attributes").key(name);
      Map<String, DeviceAttribute> attributes = device.getAttributes() == null ? Map.of()
          : device.getAttributes();
      DeviceAttribute attribute = null;
      boolean found = attributes.containsKey(name);
      if (found) {
        attribute = attributes.get(name);
      } else if (!bareName.isEmpty() && attributes.containsKey(bareName)) {
        found = true;
        attribute = attributes.get(bareName);
      }
      if (!found) {
        errors.add(Errors.required(attributePath, "device consumes counters and "
            + "`partitionTypeAttribute` names this attribute, so it must be set"));
      } else if (attribute == null || attribute.getString() == null) {
        DeviceAttribute printed = attribute == null ? new DeviceAttribute() : attribute;
        errors.add(Errors.invalid(attributePath, GoSyntax.deviceAttribute(printed),
            "must be a string value because `partitionTypeAttribute` names this attribute"));
      }
    }
    return errors;
  }

  /**
   * validateSkipNodeOperations: preparation may only be skipped together with unpreparation.
   *
   * @param operations the operations, may be null
   * @param path {@code spec.skipNodeOperations}
   * @return the errors
   */
  static List<FieldError> skipNodeOperations(List<String> operations, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (operations == null || !operations.contains(PREPARE) || operations.contains(UNPREPARE)
        || operations.contains(ALL)) {
      return errors;
    }
    errors.add(Errors.invalid(path, GoSyntax.stringList(operations),
        "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped"));
    return errors;
  }

  private static boolean consumesCounters(Device device) {
    return device != null && device.getConsumesCounters() != null
        && !device.getConsumesCounters().isEmpty();
  }
}
