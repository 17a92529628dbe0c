package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.github.dra4j.cel.CompiledSelector;
import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.cel.SelectorCompileException;
import io.github.dra4j.cel.SelectorResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a device is selectable for a request (D1): binding conditions allowed, every
 * class selector and then every request selector true, and per-device node selection matching.
 * Results are cached per (request, device) for one attempt. CEL compile and runtime errors abort
 * the attempt with the Kubernetes allocator's wording. Mutable cache; owned by one attempt.
 */
final class SelectorMatcher {

  private final DeviceSelectorEnvironment environment;
  private final AllocatorFeatures features;
  private final PoolGathering gathering;
  private final Map<Long, Boolean> cache = new HashMap<>();

  SelectorMatcher(
      DeviceSelectorEnvironment environment, AllocatorFeatures features, PoolGathering gathering) {
    this.environment = environment;
    this.features = features;
    this.gathering = gathering;
  }

  boolean selectable(ClaimPlan claim, RequestPlan plan, PoolDevice device) throws AllocationError {
    long key = ((long) plan.ordinal() << 32) | device.ordinal();
    Boolean cached = cache.get(key);
    if (cached != null) {
      return cached;
    }
    boolean result = mismatch(claim, plan, device) == null;
    cache.put(key, result);
    return result;
  }

  /** What part of D1 a device fails. */
  enum MismatchKind {
    BINDING_CONDITIONS, CLASS_SELECTOR, REQUEST_SELECTOR, DEVICE_NODE
  }

  /**
   * Why a device is not selectable.
   *
   * @param kind the failed check
   * @param index the selector's index for selector kinds, else -1
   * @param expression the selector's expression for selector kinds, else null
   */
  record Mismatch(MismatchKind kind, int index, String expression) {}

  /**
   * Returns why a device is not selectable for a request, or null when it is; not cached.
   *
   * @throws AllocationError for CEL compile and runtime errors, worded as the allocator's
   */
  Mismatch mismatch(ClaimPlan claim, RequestPlan plan, PoolDevice device)
      throws AllocationError {
    if (!features.deviceBindingAndStatus() && !device.bindingConditions().isEmpty()) {
      return new Mismatch(MismatchKind.BINDING_CONDITIONS, -1, null);
    }
    List<DeviceSelector> classSelectors = NodeSelection.nonNull(plan.deviceClass().getSpec() == null
        ? null : plan.deviceClass().getSpec().getSelectors());
    String classPrefix = "class " + plan.className();
    for (int i = 0; i < classSelectors.size(); i++) {
      DeviceSelector selector = classSelectors.get(i);
      if (selector == null || selector.getCel() == null
          || selector.getCel().getExpression() == null) {
        throw new AllocationError(
            classPrefix + ": selector #" + i
                + ": CEL expression empty (unsupported selector type?)");
      }
      if (!matches(classPrefix, i, selector.getCel().getExpression(), device)) {
        return new Mismatch(MismatchKind.CLASS_SELECTOR, i, selector.getCel().getExpression());
      }
    }
    String claimPrefix = "claim " + claim.name();
    for (int i = 0; i < plan.selectors().size(); i++) {
      if (!matches(claimPrefix, i, plan.selectors().get(i), device)) {
        return new Mismatch(MismatchKind.REQUEST_SELECTOR, i, plan.selectors().get(i));
      }
    }
    if (device.perDeviceNodeSelection()) {
      try {
        if (!gathering.deviceTargetsNode(device.device())) {
          return new Mismatch(MismatchKind.DEVICE_NODE, -1, null);
        }
      } catch (IllegalArgumentException e) {
        throw new AllocationError(
            "device " + device.id() + ": failed to perform node selection: " + e.getMessage(), e);
      }
    }
    return null;
  }

  private boolean matches(String prefix, int index, String expression, PoolDevice device)
      throws AllocationError {
    CompiledSelector compiled;
    try {
      compiled = environment.compile(expression);
    } catch (SelectorCompileException e) {
      throw new AllocationError(
          prefix + ": selector #" + index + ": CEL compile error: " + e.getMessage(), e);
    }
    SelectorResult result = compiled.evaluate(device.selectorView(features.listTypeAttributes()));
    if (result instanceof SelectorResult.Failure failure) {
      throw new AllocationError(
          prefix + ": selector #" + index + " on device " + device.id() + ": CEL runtime error: "
              + failure.messageWithHint());
    }
    return result.matches();
  }
}
