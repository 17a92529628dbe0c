package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of one device request of a claim (Go's {@code validateDeviceRequest}, {@code
 * validateExactDeviceRequest}, {@code validateDeviceSubRequest}, {@code
 * validateDeviceAllocationMode}): a request name, exactly one of {@code exactly} and {@code
 * firstAvailable}, and in each exact request or sub-request a device class, selectors, an
 * allocation mode with a count that fits it, and tolerations. Kubernetes 1.36 checks nothing of
 * {@code adminAccess} here (the strategy checks the namespace's admin-access label) nor of {@code
 * capacity}; {@code derivedAttributes} came in 1.37. Stateless.
 */
final class DeviceRequestRules {

  /** The allocation mode that takes a count. */
  static final String EXACT_COUNT = "ExactCount";
  /** The allocation mode for all matching devices. */
  static final String ALL = "All";

  private static final List<String> ALLOCATION_MODES = List.of(ALL, EXACT_COUNT);

  private DeviceRequestRules() {}

  /**
   * Checks a request.
   *
   * @param request the request, may be null
   * @param path its field, {@code spec.devices.requests[i]}
   * @param gates the API server's feature gates
   * @param stored whether the claim was stored before
   * @return the errors
   */
  static List<FieldError> request(DeviceRequest request, FieldPath path, FeatureGates gates,
      boolean stored) {
    DeviceRequest value = request == null ? new DeviceRequest() : request;
    List<FieldError> errors = new ArrayList<>(
        DeviceFieldRules.requestName(nonNull(value.getName()), path.child("name")));
    boolean hasFirstAvailable = value.getFirstAvailable() != null
        && !value.getFirstAvailable().isEmpty();
    boolean hasExactly = value.getExactly() != null;
    if (!hasFirstAvailable && !hasExactly) {
      errors.add(Errors.required(path, "exactly one of `exactly` or `firstAvailable` is required"));
    } else if (hasFirstAvailable && hasExactly) {
      errors.add(Errors.invalid(path, null, "exactly one of `exactly` or `firstAvailable` is"
          + " required, but multiple fields are set"));
    } else if (hasFirstAvailable) {
      errors.addAll(Collections.set(value.getFirstAvailable(),
          ResourceLimits.FIRST_AVAILABLE_MAX,
          (subRequest, itemPath) -> subRequest(subRequest, itemPath, gates, stored),
          subRequest -> subRequest == null ? "" : nonNull(subRequest.getName()),
          path.child("firstAvailable")));
    } else {
      errors.addAll(exactRequest(value.getExactly(), path.child("exactly"), gates, stored));
    }
    return errors;
  }

  private static List<FieldError> exactRequest(ExactDeviceRequest request, FieldPath path,
      FeatureGates gates, boolean stored) {
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(deviceClass(request.getDeviceClassName(), path.child("deviceClassName")));
    errors.addAll(SelectorRules.selectors(request.getSelectors(), path.child("selectors"), gates,
        stored));
    errors.addAll(allocationMode(request.getAllocationMode(), request.getCount(), path));
    errors.addAll(tolerations(request.getTolerations(), path.child("tolerations")));
    return errors;
  }

  private static List<FieldError> subRequest(DeviceSubRequest subRequest, FieldPath path,
      FeatureGates gates, boolean stored) {
    DeviceSubRequest value = subRequest == null ? new DeviceSubRequest() : subRequest;
    List<FieldError> errors = new ArrayList<>(
        DeviceFieldRules.requestName(nonNull(value.getName()), path.child("name")));
    errors.addAll(deviceClass(value.getDeviceClassName(), path.child("deviceClassName")));
    errors.addAll(SelectorRules.selectors(value.getSelectors(), path.child("selectors"), gates,
        stored));
    errors.addAll(allocationMode(value.getAllocationMode(), value.getCount(), path));
    errors.addAll(tolerations(value.getTolerations(), path.child("tolerations")));
    return errors;
  }

  /** Go's validateDeviceClass: required, then a DNS subdomain. */
  private static List<FieldError> deviceClass(String name, FieldPath path) {
    if (name == null || name.isEmpty()) {
      return List.of(Errors.required(path, ""));
    }
    return DeviceFieldRules.deviceClassName(name, path);
  }

  /** The allocation mode and the count at {@code path.allocationMode} and {@code path.count}. */
  private static List<FieldError> allocationMode(String mode, Long count, FieldPath path) {
    String value = nonNull(mode);
    long number = count == null ? 0 : count;
    switch (value) {
      case ALL -> {
        if (number != 0) {
          return List.of(Errors.invalid(path.child("count"), number,
              "must not be specified when allocationMode is '" + ALL + "'"));
        }
        return List.of();
      }
      case EXACT_COUNT -> {
        if (number <= 0) {
          return List.of(Errors.invalid(path.child("count"), number, "must be greater than zero"));
        }
        return List.of();
      }
      default -> {
        return List.of(
            Errors.notSupported(
                path.child("allocationMode"), GoValues.typed(value), ALLOCATION_MODES));
      }
    }
  }

  /** Each toleration; Kubernetes 1.36 does not enforce the documented limit of 16. */
  private static List<FieldError> tolerations(List<DeviceToleration> tolerations,
      FieldPath path) {
    return Collections.list(tolerations, -1,
        (toleration, itemPath) -> DeviceFieldRules.toleration(
            toleration == null ? new DeviceToleration() : toleration, itemPath),
        path);
  }

  private static String nonNull(String value) {
    return value == null ? "" : value;
  }
}
