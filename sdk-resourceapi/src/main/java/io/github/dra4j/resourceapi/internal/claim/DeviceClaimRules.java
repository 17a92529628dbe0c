package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaimConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The rules of a claim's {@code spec.devices}, which claims and claim templates share (Go's {@code
 * validateDeviceClaim}, {@code validateDeviceConstraint} and {@code
 * validateDeviceClaimConfiguration}): at most 32 requests with unique names, at most 32
 * constraints, at most 32 config entries; constraints and config entries refer to requests of the
 * claim. Stateless.
 */
public final class DeviceClaimRules {

  private DeviceClaimRules() {}

  /**
   * Checks a claim's devices.
   *
   * @param devices {@code spec.devices}, may be null
   * @param path its field, {@code spec.devices} or {@code spec.spec.devices}
   * @param gates the API server's feature gates
   * @param stored whether the claim was stored before (never in Kubernetes 1.36, which checks
   *     only that a stored spec did not change)
   * @return the errors
   */
  public static List<FieldError> deviceClaim(DeviceClaim devices, FieldPath path,
      FeatureGates gates, boolean stored) {
    DeviceClaim value = devices == null ? new DeviceClaim() : devices;
    RequestNames requestNames = RequestNames.of(value);
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(Collections.set(value.getRequests(), ResourceLimits.DEVICE_REQUESTS_MAX,
        (request, itemPath) -> DeviceRequestRules.request(request, itemPath, gates, stored),
        (Function<DeviceRequest, String>) request -> request == null || request.getName() == null
            ? "" : request.getName(),
        path.child("requests")));
    errors.addAll(Collections.list(value.getConstraints(), ResourceLimits.DEVICE_CONSTRAINTS_MAX,
        (constraint, itemPath) -> constraint(constraint, itemPath, requestNames, gates),
        path.child("constraints")));
    errors.addAll(Collections.list(value.getConfig(), ResourceLimits.DEVICE_CONFIG_MAX,
        (config, itemPath) -> configuration(config, itemPath, requestNames, stored),
        path.child("config")));
    return errors;
  }

  /**
   * Checks the {@code requests} of a constraint or config entry: at most 32, unique, each a
   * reference to a request of the claim.
   *
   * @param references the references, may be null
   * @param path the list's field
   * @param requestNames the claim's request names
   * @return the errors
   */
  public static List<FieldError> requestReferences(List<String> references, FieldPath path,
      RequestNames requestNames) {
    return Collections.set(references, ResourceLimits.DEVICE_REQUESTS_MAX,
        requestNames::checkReference, reference -> reference == null ? "" : reference, path);
  }

  private static List<FieldError> constraint(DeviceConstraint constraint, FieldPath path,
      RequestNames requestNames, FeatureGates gates) {
    DeviceConstraint value = constraint == null ? new DeviceConstraint() : constraint;
    List<FieldError> errors = new ArrayList<>(
        requestReferences(value.getRequests(), path.child("requests"), requestNames));
    if (value.getMatchAttribute() != null) {
      errors.addAll(DeviceFieldRules.fullyQualifiedName(value.getMatchAttribute(),
          path.child("matchAttribute")));
    } else if (value.getDistinctAttribute() != null) {
      errors.addAll(DeviceFieldRules.fullyQualifiedName(value.getDistinctAttribute(),
          path.child("distinctAttribute")));
    } else if (gates.enabled(FeatureGates.DRA_CONSUMABLE_CAPACITY)) {
      // The server's words, although the problem is that neither field is set.
      errors.add(Errors.required(path, "exactly one of \"matchAttribute\" or"
          + " \"distinctAttribute\" is required, but multiple fields are set"));
    } else {
      errors.add(Errors.required(path.child("matchAttribute"), ""));
    }
    return errors;
  }

  private static List<FieldError> configuration(DeviceClaimConfiguration config, FieldPath path,
      RequestNames requestNames, boolean stored) {
    DeviceClaimConfiguration value = config == null ? new DeviceClaimConfiguration() : config;
    List<FieldError> errors = new ArrayList<>(
        requestReferences(value.getRequests(), path.child("requests"), requestNames));
    errors.addAll(DeviceConfigRules.deviceConfiguration(value.getOpaque(), path, stored));
    return errors;
  }
}
