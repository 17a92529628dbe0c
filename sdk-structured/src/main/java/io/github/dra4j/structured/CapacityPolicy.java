package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.github.dra4j.core.quantity.QuantityValue;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Consumable capacity (DRAConsumableCapacity): how much of each device capacity a request
 * consumes, whether that amount obeys the capacity's request policy, and whether it still fits
 * next to what other allocations already consume. Stateless.
 */
final class CapacityPolicy {

  private CapacityPolicy() {}

  /**
   * Computes what a request would consume of every capacity of a device.
   *
   * @param requests the request's {@code capacity.requests} (may be empty)
   * @param device the candidate
   * @param alreadyConsumed amounts consumed by existing shared allocations and by earlier choices
   *     of this attempt, per capacity name
   * @return the amount per capacity name, or null when the device does not fit: a requested
   *     capacity is missing, an amount breaks the policy, or the sum exceeds the capacity
   */
  static Map<String, QuantityValue> consumption(
      Map<String, QuantityValue> requests,
      PoolDevice device,
      Map<String, QuantityValue> alreadyConsumed) {
    return consumption(requests, device, alreadyConsumed, null);
  }

  /**
   * Like {@link #consumption(Map, PoolDevice, Map)}, and says why a device does not fit.
   *
   * @param why receives the reason when the result is null; may be null (the allocator's case)
   */
  static Map<String, QuantityValue> consumption(
      Map<String, QuantityValue> requests,
      PoolDevice device,
      Map<String, QuantityValue> alreadyConsumed,
      StringBuilder why) {
    Map<String, Capacity> capacity = device.capacity();
    for (String name : requests.keySet()) {
      if (!capacity.containsKey(name)) {
        if (why != null) {
          why.append("the request asks for capacity ").append(name)
              .append(", which the device does not have");
        }
        return null;
      }
    }
    Map<String, QuantityValue> amounts = new LinkedHashMap<>();
    for (Map.Entry<String, Capacity> entry : capacity.entrySet()) {
      Capacity cap = entry.getValue();
      QuantityValue requested = requests.get(entry.getKey());
      QuantityValue amount = cap.amountFor(requested);
      if (!cap.isDefault(amount) && cap.violatesPolicy(amount)) {
        if (why != null) {
          why.append("capacity ").append(entry.getKey()).append(": ")
              .append(amount.toKubernetesString())
              .append(" is not allowed by the device's request policy");
        }
        return null;
      }
      QuantityValue already = alreadyConsumed.getOrDefault(entry.getKey(), QuantityValue.ZERO);
      QuantityValue total = amount.add(already);
      if (total.compareTo(cap.value) > 0) {
        if (why != null) {
          why.append("capacity ").append(entry.getKey()).append(": needs ")
              .append(amount.toKubernetesString())
              .append(", ").append(already.toKubernetesString()).append(" of ")
              .append(cap.value.toKubernetesString())
              .append(" already consumed by other allocations");
        }
        return null;
      }
      amounts.put(entry.getKey(), amount);
    }
    return amounts;
  }

  /**
   * One device capacity with its request policy, parsed.
   *
   * @param value the capacity
   * @param defaultAmount {@code requestPolicy.default}, or null
   * @param min {@code validRange.min}, or null
   * @param max {@code validRange.max}, or null
   * @param step {@code validRange.step}, or null
   * @param validValues {@code validValues}, ascending, possibly empty
   */
  record Capacity(
      QuantityValue value,
      QuantityValue defaultAmount,
      QuantityValue min,
      QuantityValue max,
      QuantityValue step,
      List<QuantityValue> validValues) {

    /** Parses a device capacity, naming {@code field} and the value in errors. */
    static Capacity of(String field, DeviceCapacity capacity) {
      if (capacity == null) {
        throw new IllegalArgumentException(field + ": missing value");
      }
      QuantityValue value = Quantities.parse(capacity.getValue(), field);
      CapacityRequestPolicy policy = capacity.getRequestPolicy();
      if (policy == null) {
        return new Capacity(value, null, null, null, null, List.of());
      }
      CapacityRequestPolicyRange range = policy.getValidRange();
      List<QuantityValue> valid = new ArrayList<>();
      for (Quantity q : NodeSelection.nonNull(policy.getValidValues())) {
        valid.add(Quantities.parse(q, field + " validValues"));
      }
      return new Capacity(
          value,
          optional(policy.getDefault(), field + " default"),
          range == null ? null : optional(range.getMin(), field + " validRange.min"),
          range == null ? null : optional(range.getMax(), field + " validRange.max"),
          range == null ? null : optional(range.getStep(), field + " validRange.step"),
          List.copyOf(valid));
    }

    private static QuantityValue optional(Quantity q, String field) {
      return q == null ? null : Quantities.parse(q, field);
    }

    /** The amount a request of {@code requested} (null: no request) consumes. */
    QuantityValue amountFor(QuantityValue requested) {
      if (requested == null) {
        return defaultAmount != null ? defaultAmount : value;
      }
      if (min != null) {
        if (requested.compareTo(min) < 0) {
          return min;
        }
        if (step != null && step.signum() > 0) {
          BigDecimal steps = requested.toBigDecimal().subtract(min.toBigDecimal())
              .divide(step.toBigDecimal(), 0, RoundingMode.CEILING);
          BigDecimal amount = min.toBigDecimal().add(step.toBigDecimal().multiply(steps));
          return QuantityValue.ofDecimal(amount, min.isBinaryFormat() || step.isBinaryFormat());
        }
        return requested;
      }
      for (QuantityValue candidate : validValues) {
        if (candidate.compareTo(requested) >= 0) {
          return candidate;
        }
      }
      return requested;
    }

    boolean isDefault(QuantityValue amount) {
      return defaultAmount != null && defaultAmount.equals(amount);
    }

    boolean violatesPolicy(QuantityValue amount) {
      if (max != null && amount.compareTo(max) > 0) {
        return true;
      }
      if (min != null && step != null && step.signum() > 0) {
        BigDecimal offset = amount.toBigDecimal().subtract(min.toBigDecimal());
        if (offset.signum() < 0 || offset.remainder(step.toBigDecimal()).signum() != 0) {
          return true;
        }
      }
      return !validValues.isEmpty() && !validValues.contains(amount);
    }
  }
}
