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
    boolean result = evaluate(claim, plan, device);
    cache.put(key, result);
    return result;
  }

  private boolean evaluate(ClaimPlan claim, RequestPlan plan, PoolDevice device)
      throws AllocationError {
    if (!features.deviceBindingAndStatus() && !device.bindingConditions().isEmpty()) {
      return false;
    }
    List<DeviceSelector> classSelectors =
        NodeSelection.nonNull(plan.deviceClass().getSpec() == null
            ? null : plan.deviceClass().getSpec().getSelectors());
    String classPrefix = "class " + plan.className();
    for (int i = 0; i < classSelectors.size(); i++) {
      DeviceSelector selector = classSelectors.get(i);
      if (selector == null || selector.getCel() == null || selector.getCel().getExpression() == null) {
        throw new AllocationError(
            classPrefix + ": selector #" + i + ": CEL expression empty (unsupported selector type?)");
      }
      if (!matches(classPrefix, i, selector.getCel().getExpression(), device)) {
        return false;
      }
    }
    String claimPrefix = "claim " + claim.name();
    for (int i = 0; i < plan.selectors().size(); i++) {
      if (!matches(claimPrefix, i, plan.selectors().get(i), device)) {
        return false;
      }
    }
    if (device.perDeviceNodeSelection()) {
      try {
        return gathering.deviceTargetsNode(device.device());
      } catch (IllegalArgumentException e) {
        throw new AllocationError(
            "device " + device.id() + ": failed to perform node selection: " + e.getMessage(), e);
      }
    }
    return true;
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
    if (result instanceof SelectorResult.Failure) {
      throw new AllocationError(
          prefix + ": selector #" + index + " on device " + device.id() + ": CEL runtime error: "
              + ((SelectorResult.Failure) result).messageWithHint());
    }
    return result.matches();
  }
}
