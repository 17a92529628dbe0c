package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.core.quantity.QuantityValue;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the claims allocated so far hold: devices in exclusive use, shared allocations (with their
 * share IDs) and the capacity those consume per device. Admin-access results never count.
 * Immutable after construction.
 */
final class AllocatedState {

  private final Set<DeviceId> devices = new HashSet<>();
  private final Set<DeviceId> sharedDevices = new HashSet<>();
  private final Map<DeviceId, Map<String, QuantityValue>> consumed = new HashMap<>();

  /**
   * Reads the allocations of claims.
   *
   * @throws AllocationError naming the claim, device and value when a consumed capacity is not a
   *     quantity
   */
  AllocatedState(List<ResourceClaim> claims, AllocatorFeatures features) throws AllocationError {
    for (ResourceClaim claim : claims) {
      AllocationResult allocation = claim.getStatus() == null ? null
          : claim.getStatus().getAllocation();
      if (allocation == null || allocation.getDevices() == null) {
        continue;
      }
      for (DeviceRequestAllocationResult result : NodeSelection
          .nonNull(allocation.getDevices().getResults())) {
        record(claim, result, features);
      }
    }
  }

  private void record(ResourceClaim claim, DeviceRequestAllocationResult result,
      AllocatorFeatures features)
      throws AllocationError {
    if (Boolean.TRUE.equals(result.getAdminAccess())) {
      return;
    }
    DeviceId id = new DeviceId(result.getDriver(), result.getPool(), result.getDevice());
    if (!features.consumableCapacity() || result.getShareID() == null) {
      devices.add(id);
      return;
    }
    sharedDevices.add(id);
    Map<String, QuantityValue> sum = consumed.computeIfAbsent(id, k -> new HashMap<>());
    Map<String, Quantity> amounts = result.getConsumedCapacity();
    for (Map.Entry<String, Quantity> e : (amounts == null ? Map.<String, Quantity> of() : amounts)
        .entrySet()) {
      try {
        QuantityValue amount = Quantities.parse(e.getValue(), "claim " + ClaimNames.of(claim)
            + ": device " + id + ": consumedCapacity " + e.getKey());
        sum.merge(e.getKey(), amount, QuantityValue::add);
      } catch (IllegalArgumentException bad) {
        throw new AllocationError(bad.getMessage(), bad);
      }
    }
  }

  /** Returns true when the device is held exclusively by an allocated claim. */
  boolean exclusivelyAllocated(DeviceId id) {
    return devices.contains(id);
  }

  /** Returns true when the device is in use in any way (counts against counters). */
  boolean inUse(DeviceId id) {
    return devices.contains(id) || sharedDevices.contains(id) || consumed.containsKey(id);
  }

  /** Returns the capacity consumed by shared allocations of the device, per capacity name. */
  Map<String, QuantityValue> consumed(DeviceId id) {
    return consumed.getOrDefault(id, Map.of());
  }
}
