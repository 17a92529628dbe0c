package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a device configuration, in claims, DeviceClasses and allocation results (Go's
 * {@code validateDeviceConfiguration} and {@code validateOpaqueConfiguration}): {@code opaque} is
 * required, with a driver name and parameters that are a JSON object of at most 10 KiB. Stateless.
 */
public final class DeviceConfigRules {

  private DeviceConfigRules() {}

  /**
   * Checks the configuration part of a claim's, class's or allocation's config entry.
   *
   * @param opaque the entry's {@code opaque}, may be null
   * @param path the entry's field, e.g. {@code spec.devices.config[0]}
   * @param stored whether the entry was stored before: the size of its parameters is not checked
   *     then (the limit came in Kubernetes 1.32)
   * @return the errors
   */
  public static List<FieldError> deviceConfiguration(OpaqueDeviceConfiguration opaque,
      FieldPath path, boolean stored) {
    FieldPath opaquePath = path.child("opaque");
    if (opaque == null) {
      return List.of(Errors.required(opaquePath, ""));
    }
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(DeviceFieldRules.driverName(nonNull(opaque.getDriver()),
        opaquePath.child("driver")));
    errors.addAll(DeviceFieldRules.rawExtension(opaque.getParameters(),
        opaquePath.child("parameters"), stored, ResourceLimits.OPAQUE_PARAMETERS_MAX_LENGTH));
    return errors;
  }

  private static String nonNull(String value) {
    return value == null ? "" : value;
  }
}
