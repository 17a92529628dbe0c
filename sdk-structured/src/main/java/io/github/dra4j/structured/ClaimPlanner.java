package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.core.quantity.QuantityValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Validates the claims of an attempt before the search (V1 to V5 of the Kubernetes allocator)
 * and turns each request into {@link RequestPlan}s: class lookup, count mode, the device list of
 * {@code All} requests, the per-claim device limit and the constraints. Errors carry the
 * allocator's wording. Used by one attempt.
 */
final class ClaimPlanner {

  /** Maximum number of devices in one claim's allocation ({@code AllocationResultsMaxSize}). */
  static final int MAX_RESULTS = 32;

  private final AllocatorFeatures features;
  private final Map<String, DeviceClass> classes;
  private final List<Pool> pools;
  private final AllocatedState allocated;
  private final SelectorMatcher matcher;
  private int nextOrdinal;

  ClaimPlanner(
      AllocatorFeatures features,
      Map<String, DeviceClass> classes,
      List<Pool> pools,
      AllocatedState allocated,
      SelectorMatcher matcher) {
    this.features = features;
    this.classes = classes;
    this.pools = pools;
    this.allocated = allocated;
    this.matcher = matcher;
  }

  List<ClaimPlan> plan(List<ResourceClaim> claims) throws AllocationError {
    List<ClaimPlan> plans = new ArrayList<>();
    for (int claimIndex = 0; claimIndex < claims.size(); claimIndex++) {
      plans.add(planClaim(claimIndex, claims.get(claimIndex)));
    }
    return plans;
  }

  private ClaimPlan planClaim(int claimIndex, ResourceClaim claim) throws AllocationError {
    String claimName = ClaimNames.of(claim);
    List<DeviceRequest> requests = claim.getSpec() == null || claim.getSpec().getDevices() == null
        ? List.of()
        : NodeSelection.nonNull(claim.getSpec().getDevices().getRequests());
    List<List<RequestPlan>> slots = new ArrayList<>();
    ClaimPlan partial = new ClaimPlan(claim, slots, List.of());
    int minDevices = 0;
    for (DeviceRequest request : requests) {
      List<DeviceSubRequest> subs = NodeSelection.nonNull(request.getFirstAvailable());
      String prefix = "claim " + claimName + ", request " + request.getName();
      if (!subs.isEmpty() && !features.prioritizedList()) {
        throw new AllocationError(
            prefix + ": has subrequests, but the DRAPrioritizedList feature is disabled");
      }
      ExactDeviceRequest exactly = request.getExactly();
      if (exactly != null && hasCapacityRequests(exactly.getCapacity())
          && !features.consumableCapacity()) {
        throw new AllocationError(
            prefix + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
      }
      List<RequestPlan> slot = new ArrayList<>();
      if (subs.isEmpty()) {
        slot.add(planExact(partial, claimIndex, request.getName(), exactly));
      } else {
        for (DeviceSubRequest sub : subs) {
          if (hasCapacityRequests(sub.getCapacity()) && !features.consumableCapacity()) {
            throw new AllocationError("claim " + claimName + ", subrequest " + sub.getName()
                + ": has capacity requests, but the DRAConsumableCapacity feature is disabled");
          }
          slot.add(planSub(partial, claimIndex, request.getName(), sub));
        }
      }
      slots.add(List.copyOf(slot));
      minDevices += slot.stream().mapToInt(RequestPlan::numDevices).min().orElse(0);
    }
    if (minDevices > MAX_RESULTS) {
      throw new AllocationError("claim " + claimName + ": number of requested devices " + minDevices
          + " exceeds the claim limit of " + MAX_RESULTS);
    }
    return new ClaimPlan(claim, List.copyOf(slots), constraints(claim, claimName));
  }

  private static boolean hasCapacityRequests(CapacityRequirements capacity) {
    return capacity != null && capacity.getRequests() != null && !capacity.getRequests().isEmpty();
  }

  private RequestPlan planExact(ClaimPlan claim, int claimIndex, String name, ExactDeviceRequest r)
      throws AllocationError {
    if (r == null) {
      return plan(claim, claimIndex, name, null, new RequestFields(
          List.of(), null, "", null, null, List.of(), null));
    }
    return plan(claim, claimIndex, name, null, new RequestFields(
        NodeSelection.nonNull(r.getSelectors()), r.getAdminAccess(), r.getDeviceClassName(),
        r.getAllocationMode(), r.getCount(), NodeSelection.nonNull(r.getTolerations()),
        r.getCapacity()));
  }

  private RequestPlan planSub(ClaimPlan claim, int claimIndex, String parent, DeviceSubRequest r)
      throws AllocationError {
    return plan(claim, claimIndex, parent, r.getName(), new RequestFields(
        NodeSelection.nonNull(r.getSelectors()), null, r.getDeviceClassName(),
        r.getAllocationMode(),
        r.getCount(), NodeSelection.nonNull(r.getTolerations()), r.getCapacity()));
  }

  /** The fields exact requests and subrequests share. */
  private record RequestFields(
      List<DeviceSelector> selectors,
      Boolean adminAccess,
      String className,
      String mode,
      Long count,
      List<DeviceToleration> tolerations,
      CapacityRequirements capacity) {}

  private RequestPlan plan(ClaimPlan claim, int claimIndex, String base, String sub,
      RequestFields f)
      throws AllocationError {
    String prefix = "claim " + claim.name() + ", request " + (sub == null ? base : sub);
    List<String> expressions = new ArrayList<>();
    for (int i = 0; i < f.selectors().size(); i++) {
      DeviceSelector selector = f.selectors().get(i);
      if (selector == null || selector.getCel() == null
          || selector.getCel().getExpression() == null) {
        throw new AllocationError(
            prefix + ", selector #" + i + ": CEL expression empty (unsupported selector type?)");
      }
      expressions.add(selector.getCel().getExpression());
    }
    if (!features.adminAccess() && f.adminAccess() != null) {
      throw new AllocationError(
          prefix + ": admin access is requested, but the feature is disabled");
    }
    if (f.className() == null || f.className().isEmpty()) {
      throw new AllocationError(prefix + ": missing device class name (unsupported request type?)");
    }
    DeviceClass deviceClass = classes.get(f.className());
    if (deviceClass == null) {
      throw new AllocationError(prefix + ": could not retrieve device class " + f.className()
          + ": deviceclass.resource.k8s.io \"" + f.className() + "\" not found");
    }
    Map<String, QuantityValue> capacity = capacityRequests(prefix, f.capacity());
    String mode = f.mode() == null ? "" : f.mode();
    long count = f.count() == null ? 0 : f.count();
    if (mode.equals("ExactCount") && (count < 0 || count > Integer.MAX_VALUE)) {
      throw new AllocationError(prefix + ": invalid count " + count);
    }
    RequestPlan plan = new RequestPlan(nextOrdinal++, claimIndex, base, sub, deviceClass,
        List.copyOf(expressions), Boolean.TRUE.equals(f.adminAccess()),
        List.copyOf(f.tolerations()), capacity, (int) count, null);
    return switch (mode) {
      case "ExactCount" -> plan;
      case "All" -> plan.withAllDevices(allDevices(claim, plan, prefix));
      default -> throw new AllocationError(prefix + ": unsupported count mode " + mode);
    };
  }

  private Map<String, QuantityValue> capacityRequests(String prefix, CapacityRequirements capacity)
      throws AllocationError {
    Map<String, QuantityValue> parsed = new LinkedHashMap<>();
    if (capacity == null || capacity.getRequests() == null) {
      return parsed;
    }
    for (Map.Entry<String, Quantity> e : capacity.getRequests().entrySet()) {
      try {
        parsed.put(e.getKey(), Quantities.parse(e.getValue(), "capacity request " + e.getKey()));
      } catch (IllegalArgumentException bad) {
        throw new AllocationError(prefix + ": " + bad.getMessage(), bad);
      }
    }
    return parsed;
  }

  private List<PoolDevice> allDevices(ClaimPlan claim, RequestPlan plan, String prefix)
      throws AllocationError {
    List<PoolDevice> devices = new ArrayList<>();
    for (Pool pool : pools) {
      if (pool.incomplete()) {
        throw new AllocationError(prefix + ": asks for all devices, but resource pool " + pool.id()
            + " is currently being updated");
      }
      if (pool.invalidReason() != null) {
        throw new AllocationError(prefix + ": asks for all devices, but resource pool " + pool.id()
            + " is currently invalid");
      }
      for (PoolDevice device : pool.devices()) {
        if (matcher.selectable(claim, plan, device) && fitsCapacity(plan, device)) {
          devices.add(device);
        }
      }
    }
    return devices;
  }

  private boolean fitsCapacity(RequestPlan plan, PoolDevice device) {
    return !features.consumableCapacity()
        || CapacityPolicy.consumption(plan.capacityRequests(), device,
            allocated.consumed(device.id())) != null;
  }

  private List<Constraint> constraints(ResourceClaim claim, String claimName)
      throws AllocationError {
    List<DeviceConstraint> constraints = claim.getSpec() == null
        || claim.getSpec().getDevices() == null
            ? List.of()
            : NodeSelection.nonNull(claim.getSpec().getDevices().getConstraints());
    List<Constraint> result = new ArrayList<>();
    for (int i = 0; i < constraints.size(); i++) {
      DeviceConstraint c = constraints.get(i);
      List<String> requests = NodeSelection.nonNull(c.getRequests());
      if (c.getMatchAttribute() != null) {
        result.add(new Constraint.MatchAttribute(
            requests, c.getMatchAttribute(), features.listTypeAttributes()));
      } else if (c.getDistinctAttribute() != null) {
        result.add(new Constraint.DistinctAttribute(
            requests, c.getDistinctAttribute(), features.listTypeAttributes()));
      } else {
        throw new AllocationError("claim " + claimName + ", constraint #" + i
            + ": empty constraint (unsupported constraint type?)");
      }
    }
    return result;
  }
}
