package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.cel.SelectorExplainer;
import io.github.dra4j.structured.AllocationExplainer.Finding;
import io.github.dra4j.structured.AllocationExplanation.DeviceVerdict;
import io.github.dra4j.structured.AllocationExplanation.Reason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Judges one device for one request on its own, in the allocator's terms: pool usable, selectors
 * (naming the false selector and, for an {@code &&} chain, the false condition), in use by another
 * claim (naming it), shared counters, taints, consumable capacity and the attributes the claim's
 * constraints need. The checks are those of {@link SelectorMatcher}, {@link AllocationSearch},
 * {@link CounterLedger}, {@link Tolerations} and {@link CapacityPolicy}, so a verdict cannot drift
 * from what the search does. Used by one explanation, on one thread.
 */
final class DeviceJudge {

  private final AllocatorFeatures features;
  private final List<Pool> pools;
  private final AllocatedState allocated;
  private final SelectorMatcher matcher;
  private final CounterLedger counters;
  private final SelectorExplainer conditions;
  private final Map<DeviceId, Set<String>> holders = new HashMap<>();

  DeviceJudge(AllocatorFeatures features, AllocatorInputs inputs, List<Pool> pools,
      AllocatedState allocated, SelectorMatcher matcher, CounterLedger counters,
      DeviceSelectorEnvironment environment) {
    this.features = features;
    this.pools = pools;
    this.allocated = allocated;
    this.matcher = matcher;
    this.counters = counters;
    this.conditions = new SelectorExplainer(environment, features.listTypeAttributes());
    for (ResourceClaim claim : inputs.allocatedClaims()) {
      if (claim.getStatus() == null || claim.getStatus().getAllocation() == null
          || claim.getStatus().getAllocation().getDevices() == null) {
        continue;
      }
      for (DeviceRequestAllocationResult result : NodeSelection
          .nonNull(claim.getStatus().getAllocation().getDevices().getResults())) {
        if (!Boolean.TRUE.equals(result.getAdminAccess())) {
          holders.computeIfAbsent(
              new DeviceId(result.getDriver(), result.getPool(), result.getDevice()),
              k -> new LinkedHashSet<>()).add(ClaimNames.of(claim));
        }
      }
    }
  }

  /** Judges every device of the node's pools, in scan order (unusable pools included). */
  List<DeviceVerdict> judgeNodeDevices(ResourceClaim claim, ClaimPlan plan, RequestPlan request) {
    List<DeviceVerdict> verdicts = new ArrayList<>();
    for (Pool pool : pools) {
      for (PoolDevice device : pool.devices()) {
        verdicts.add(verdict(device, judge(claim, plan, request, pool, device)));
      }
    }
    return verdicts;
  }

  /**
   * Judges a device published for other nodes: reported only when the request's selectors match
   * it, since that is when its node is the reason.
   */
  Optional<DeviceVerdict> judgeElsewhere(ClaimPlan plan, RequestPlan request, PoolDevice device) {
    try {
      SelectorMatcher.Mismatch mismatch = matcher.mismatch(plan, request, device);
      if (mismatch != null && mismatch.kind() != SelectorMatcher.MismatchKind.DEVICE_NODE) {
        return Optional.empty();
      }
    } catch (AllocationError e) {
      return Optional.empty();
    }
    ResourceSliceSpec spec = device.slice().getSpec();
    String slice = device.slice().getMetadata().getName();
    String detail;
    if (spec.getNodeName() != null && !spec.getNodeName().isEmpty()) {
      detail = "slice " + slice + " is published for node " + spec.getNodeName();
    } else if (spec.getNodeSelector() != null) {
      detail = "the node selector of slice " + slice + " does not select this node";
    } else if (Boolean.TRUE.equals(spec.getPerDeviceNodeSelection())) {
      detail = "the device's own node selection does not include this node";
    } else {
      detail = "slice " + slice + " does not reach this node (it needs a feature that is off, or"
          + " names no node)";
    }
    return Optional.of(verdict(device, new Finding(Reason.WRONG_NODE, detail)));
  }

  private Finding judge(ResourceClaim claim, ClaimPlan plan, RequestPlan request, Pool pool,
      PoolDevice device) {
    if (pool.incomplete()) {
      return new Finding(Reason.POOL_INCOMPLETE, "pool " + pool.id() + " is being updated: not"
          + " all of the resourceSliceCount slices of its newest generation are visible");
    }
    if (pool.invalidReason() != null) {
      return new Finding(Reason.POOL_INVALID, "pool " + pool.id() + " is invalid: "
          + pool.invalidReason());
    }
    Finding selectors = selectors(plan, request, device);
    if (selectors != null) {
      return selectors;
    }
    DeviceId id = device.id();
    String heldBy = String.join(", ", holders.getOrDefault(id, Set.of()));
    if (!request.adminAccess() && allocated.exclusivelyAllocated(id)) {
      return new Finding(Reason.ALREADY_ALLOCATED, "allocated to claim " + heldBy);
    }
    if (!device.counterUse().isEmpty()) {
      if (!features.partitionableDevices()) {
        return new Finding(Reason.COUNTERS_UNSUPPORTED, "the device consumes shared counters and"
            + " the DRAPartitionableDevices feature is off");
      }
      boolean sharedInUse = device.shareable(features) && allocated.inUse(id);
      String shortfall = sharedInUse ? null : counters.shortfall(device);
      if (shortfall != null) {
        return new Finding(Reason.COUNTERS_EXHAUSTED, shortfall);
      }
    }
    if (features.deviceTaints()) {
      DeviceTaint taint = Tolerations.firstUntolerated(
          NodeSelection.nonNull(device.device().getTaints()), request.tolerations());
      if (taint != null) {
        return new Finding(Reason.TAINT_NOT_TOLERATED, "taint " + taint.getKey()
            + (taint.getValue() == null || taint.getValue().isEmpty() ? "" : "=" + taint.getValue())
            + ":" + taint.getEffect() + " is not tolerated by the request");
      }
    }
    if (features.consumableCapacity()) {
      StringBuilder why = new StringBuilder();
      if (CapacityPolicy.consumption(request.capacityRequests(), device, allocated.consumed(id),
          why) == null) {
        return new Finding(Reason.CAPACITY_INSUFFICIENT, why.toString());
      }
    }
    Finding constraint = constraints(claim, request, device);
    if (constraint != null) {
      return constraint;
    }
    if (request.adminAccess() && allocated.exclusivelyAllocated(id)) {
      return new Finding(Reason.USABLE, "allocated to claim " + heldBy
          + "; admin access may use it all the same");
    }
    return Finding.USABLE;
  }

  private Finding selectors(ClaimPlan plan, RequestPlan request, PoolDevice device) {
    SelectorMatcher.Mismatch mismatch;
    try {
      mismatch = matcher.mismatch(plan, request, device);
    } catch (AllocationError e) {
      return new Finding(Reason.SELECTOR_ERROR, e.getMessage());
    }
    if (mismatch == null) {
      return null;
    }
    return switch (mismatch.kind()) {
      case BINDING_CONDITIONS ->
        new Finding(
            Reason.BINDING_CONDITIONS_UNSUPPORTED,
            "the device has binding"
                + " conditions and the DRADeviceBindingConditions feature is off");
      case DEVICE_NODE ->
        new Finding(
            Reason.WRONG_NODE, "the device's own node selection does not include this node");
      case CLASS_SELECTOR ->
        new Finding(
            Reason.CLASS_SELECTOR_FALSE,
            "class "
                + request.className()
                + " selector #"
                + mismatch.index()
                + " is false: "
                + falsePart(mismatch, device));
      default ->
        new Finding(
            Reason.REQUEST_SELECTOR_FALSE,
            "request selector #"
                + mismatch.index()
                + " is false: "
                + falsePart(mismatch, device));
    };
  }

  private String falsePart(SelectorMatcher.Mismatch mismatch, PoolDevice device) {
    return conditions.falseCondition(mismatch.expression(),
        device.selectorView(features.listTypeAttributes()))
        .orElse(mismatch.expression());
  }

  private static Finding constraints(ResourceClaim claim, RequestPlan request, PoolDevice device) {
    List<DeviceConstraint> constraints = claim.getSpec() == null
        || claim.getSpec().getDevices() == null
            ? List.of() : NodeSelection.nonNull(claim.getSpec().getDevices().getConstraints());
    for (int i = 0; i < constraints.size(); i++) {
      DeviceConstraint c = constraints.get(i);
      String attribute = c.getMatchAttribute() != null ? c.getMatchAttribute()
          : c.getDistinctAttribute();
      List<String> scope = NodeSelection.nonNull(c.getRequests());
      boolean applies = scope.isEmpty() || scope.contains(request.baseName())
          || (request.subName() != null && scope.contains(request.resultName()));
      if (attribute != null && applies && Constraint.lookup(device, attribute) == null) {
        return new Finding(Reason.CONSTRAINT_ATTRIBUTE_MISSING, "constraint #" + i + " ("
            + (c.getMatchAttribute() != null ? "matchAttribute" : "distinctAttribute") + " "
            + attribute + ") needs the attribute, the device does not have it");
      }
    }
    return null;
  }

  private static DeviceVerdict verdict(PoolDevice device, Finding finding) {
    DeviceId id = device.id();
    return new DeviceVerdict(id.driver(), id.pool(), id.device(),
        String.valueOf(device.slice().getMetadata().getName()), finding.reason(), finding.detail());
  }
}
