package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of one device capacity (validateSingleAllocatableDeviceCapacity,
 * validateMultiAllocatableDeviceCapacity) and of its request policy: a policy only on a device
 * that allows multiple allocations; valid values or a valid range, not both; a default that the
 * policy allows; values sorted, unique and within the capacity; a range whose bounds, step and
 * default fit the capacity and each other. Stateless.
 */
final class DeviceCapacityValidation {

  private DeviceCapacityValidation() {}

  /**
   * The rules of a capacity.
   *
   * @param capacity the capacity, may be null
   * @param allowMultipleAllocations whether the device allows multiple allocations
   * @param path the capacity's path, {@code spec.devices[i].capacity[name]}
   * @return the errors
   */
  static List<FieldError> capacity(DeviceCapacity capacity, boolean allowMultipleAllocations,
      FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (capacity == null || capacity.getRequestPolicy() == null) {
      return errors;
    }
    FieldPath policyPath = path.child("requestPolicy");
    if (!allowMultipleAllocations) {
      errors.add(Errors.forbidden(policyPath, "allowMultipleAllocations must be true"));
      return errors;
    }
    QuantityValue value = GoQuantity.of(capacity.getValue());
    return requestPolicy(value == null ? QuantityValue.ZERO : value, capacity.getRequestPolicy(),
        policyPath);
  }

  // validateRequestPolicy and validateValidRequestValues
  private static List<FieldError> requestPolicy(QuantityValue capacity,
      CapacityRequestPolicy policy, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    boolean hasValues = policy.getValidValues() != null && !policy.getValidValues().isEmpty();
    if (hasValues && policy.getValidRange() != null) {
      errors.add(Errors.forbidden(path, "exactly one policy can be specified, cannot specify "
          + "\"validValues\" and \"validRange\" at the same time"));
      return errors;
    }
    QuantityValue defaultValue = GoQuantity.of(policy.getDefault());
    if (hasValues) {
      if (defaultValue == null) {
        errors.add(Errors.required(path.child("default"), "required when validValues is defined"));
      } else {
        errors.addAll(validValues(defaultValue, capacity, policy.getValidValues(),
            path.child("validValues")));
      }
    } else if (policy.getValidRange() != null) {
      if (defaultValue == null) {
        errors.add(Errors.required(path.child("default"), "required when validRange is defined"));
      } else {
        errors.addAll(validRange(defaultValue, capacity, policy.getValidRange(),
            path.child("validRange")));
      }
    }
    return errors;
  }

  // validateRequestPolicyValidValues; duplicates are found by the whole number each value reads
  // as (Kubernetes 1.37: by the exact value when DRAFractionalCapacityRange is on).
  private static List<FieldError> validValues(QuantityValue defaultValue, QuantityValue capacity,
      List<Quantity> validValues, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    List<QuantityValue> values = new ArrayList<>();
    for (Quantity quantity : validValues) {
      QuantityValue value = GoQuantity.of(quantity);
      values.add(value == null ? QuantityValue.ZERO : value);
    }
    for (int i = 0; i + 1 < values.size(); i++) {
      if (values.get(i).compareTo(values.get(i + 1)) > 0) {
        errors.add(Errors.invalid(path.index(i + 1), GoQuantity.string(values.get(i + 1)),
            "values must be sorted in ascending order"));
      }
    }
    boolean[] foundDefault = {false};
    errors.addAll(Collections.set(values, ResourceLimits.CAPACITY_REQUEST_POLICY_MAX_VALUES,
        (option, optionPath) -> {
          List<FieldError> optionErrors = new ArrayList<>();
          if (option.compareTo(capacity) > 0) {
            optionErrors.add(Errors.invalid(optionPath, GoQuantity.string(option),
                "option is larger than capacity value: " + GoQuantity.string(capacity)));
          }
          if (option.compareTo(defaultValue) == 0) {
            foundDefault[0] = true;
          }
          return optionErrors;
        },
        option -> Long.toString(GoQuantity.int64(option)), path));
    if (!foundDefault[0]) {
      errors.add(Errors.invalid(path, GoQuantity.string(defaultValue),
          "default value is not valid according to the requestPolicy"));
    }
    return errors;
  }

  // validateRequestPolicyRange
  private static List<FieldError> validRange(QuantityValue defaultValue, QuantityValue capacity,
      CapacityRequestPolicyRange range, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    QuantityValue min = GoQuantity.of(range.getMin());
    if (min == null) {
      errors.add(Errors.required(path.child("min"), "required when validRange is defined"));
      return errors;
    }
    String minText = GoQuantity.string(min);
    String capacityText = GoQuantity.string(capacity);
    if (min.compareTo(capacity) > 0) {
      errors.add(Errors.invalid(path.child("min"), minText,
          "min is larger than capacity value: " + capacityText));
    }
    if (defaultValue.compareTo(min) < 0) {
      // Kubernetes 1.37: reported at validRange.default.
      errors.add(Errors.invalid(path.child("min"), GoQuantity.string(defaultValue),
          "default is less than min: " + minText));
    }
    QuantityValue max = GoQuantity.of(range.getMax());
    if (max != null) {
      String maxText = GoQuantity.string(max);
      if (min.compareTo(max) > 0) {
        errors.add(Errors.invalid(path.child("max"), minText,
            "min is larger than max: " + maxText));
      }
      if (max.compareTo(capacity) > 0) {
        errors.add(Errors.invalid(path.child("max"), maxText,
            "max is larger than capacity value: " + capacityText));
      }
      if (defaultValue.compareTo(max) > 0) {
        // Kubernetes 1.37: reported at validRange.default.
        errors.add(Errors.invalid(path.child("max"), GoQuantity.string(defaultValue),
            "default is more than max: " + maxText));
      }
    }
    QuantityValue step = GoQuantity.of(range.getStep());
    if (step != null) {
      errors.addAll(step(defaultValue, capacity, min, max, step, path.child("step")));
    }
    return errors;
  }

  private static List<FieldError> step(QuantityValue defaultValue, QuantityValue capacity,
      QuantityValue min, QuantityValue max, QuantityValue step, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (GoQuantity.notPositive(step)) {
      // Kubernetes 1.36.0 fails with an internal error (a division by zero) for a zero step and
      // does not check a negative one; later releases refuse both with this error.
      errors.add(Errors.invalid(path, GoQuantity.string(step), "must be greater than zero"));
      return errors;
    }
    QuantityValue oneStep = min.add(step);
    if (oneStep.compareTo(capacity) > 0) {
      errors.add(Errors.invalid(path, GoQuantity.string(step), "one step "
          + GoQuantity.string(oneStep) + " is larger than capacity value: "
          + GoQuantity.string(capacity)));
    }
    // Kubernetes 1.37 also refuses bounds outside [0, 2^63-1] here, and with
    // DRAFractionalCapacityRange computes in thousandths when a bound has a fraction.
    errors.addAll(multipleOfStep(defaultValue, min, step, path));
    if (max != null) {
      errors.addAll(multipleOfStep(max, min, step, path));
    }
    return errors;
  }

  // validateRequestPolicyRangeStep, in whole numbers with Go's wrapping 64-bit arithmetic.
  private static List<FieldError> multipleOfStep(QuantityValue value, QuantityValue min,
      QuantityValue step, FieldPath path) {
    long stepValue = GoQuantity.int64(step);
    long offset = GoQuantity.int64(value) - GoQuantity.int64(min);
    List<FieldError> errors = new ArrayList<>();
    if (offset % stepValue != 0) {
      errors.add(Errors.invalid(path, GoQuantity.string(value), "value is not a multiple of a "
          + "given step (" + GoQuantity.string(step) + ") from (" + GoQuantity.string(min) + ")"));
    }
    return errors;
  }
}
