package io.github.dra4j.resourceapi.internal.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.internal.field.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code pkg/registry/resource/resourceclaim/strategy.go} (Kubernetes 1.36): the main strategy
 * (spec) and the status strategy. Namespaced. Objects are changed in place. The generation is
 * never incremented (the spec is immutable); it keeps the stored value on updates.
 *
 * <p>Validation: create {@code AuthorizedForAdmin} (see {@link AdminAccessAuthorization}) then
 * {@code ValidateResourceClaim}; update {@code ValidateResourceClaimUpdate}; status update {@code
 * AuthorizedForAdminStatus} then {@code ValidateResourceClaimStatusUpdate}. Declarative
 * validation runs after each in shadow mode only (logged, not returned) in 1.36.
 */
public final class ResourceClaimStrategy {

  private ResourceClaimStrategy() {}

  /**
   * Prepares a new claim: the status is cleared (users cannot set it on create; it is written
   * back as {@code status: {}}), then the disabled spec fields dropped.
   *
   * @param claim the claim, changed in place
   * @param gates the server's gates
   */
  public static void prepareForCreate(ResourceClaim claim, FeatureGates gates) {
    claim.setStatus(new ResourceClaimStatus());
    ClaimSpecFields.dropDisabled(claim.getSpec(), null, gates);
  }

  /**
   * Prepares an update of the main resource: the status is the stored one (status changes are
   * ignored), then the disabled spec fields dropped unless the stored spec uses them.
   *
   * @param claim the new claim, changed in place
   * @param old the stored claim
   * @param gates the server's gates
   */
  public static void prepareForUpdate(ResourceClaim claim, ResourceClaim old, FeatureGates gates) {
    claim.setStatus(Json.copy(old.getStatus()));
    ClaimSpecFields.dropDisabled(claim.getSpec(), old.getSpec(), gates);
  }

  /**
   * Prepares an update of {@code /status}: the spec is the stored one (spec changes are ignored),
   * the metadata except managed fields too ({@link MetaUpdates#resetForStatus}), the disabled
   * status fields are dropped unless the stored claim uses them, then {@code status.devices}
   * entries of devices no longer allocated are removed.
   *
   * @param claim the new claim, changed in place
   * @param old the stored claim
   * @param gates the server's gates
   */
  public static void prepareForStatusUpdate(ResourceClaim claim, ResourceClaim old,
      FeatureGates gates) {
    claim.setSpec(Json.copy(old.getSpec()));
    MetaUpdates.resetForStatus(claim, old);
    if (claim.getStatus() == null) {
      claim.setStatus(new ResourceClaimStatus());
    }
    dropDisabledStatusFields(claim, old, gates);
    dropDeallocatedStatusDevices(claim, old, gates);
  }

  /**
   * Returns the warnings of a create: none.
   *
   * @param claim the claim
   * @return an empty list
   */
  public static List<String> warningsOnCreate(ResourceClaim claim) {
    return List.of();
  }

  /**
   * Returns the warnings of an update or status update: none.
   *
   * @param claim the new claim
   * @param old the stored claim
   * @return an empty list
   */
  public static List<String> warningsOnUpdate(ResourceClaim claim, ResourceClaim old) {
    return List.of();
  }

  private static void dropDisabledStatusFields(ResourceClaim claim, ResourceClaim old,
      FeatureGates gates) {
    ResourceClaimStatus status = claim.getStatus();
    if (!gates.enabled(FeatureGates.DRA_RESOURCE_CLAIM_DEVICE_STATUS) && !usesDeviceStatus(old)) {
      status.setDevices(new ArrayList<>());
    }
    if (!gates.enabled(FeatureGates.DRA_ADMIN_ACCESS)
        && !ClaimSpecFields.usesAdminAccess(old.getSpec())
        && !anyResult(old, r -> r.getAdminAccess() != null)) {
      results(claim).forEach(r -> r.setAdminAccess(null));
    }
    if (!gates.enabled(FeatureGates.DRA_CONSUMABLE_CAPACITY) && !usesConsumableCapacity(old)) {
      for (DeviceRequestAllocationResult result : results(claim)) {
        result.setShareID(null);
        result.setConsumedCapacity(new LinkedHashMap<>());
      }
      devices(status).forEach(d -> d.setShareID(null));
    }
    if (!gates.enabled(FeatureGates.DRA_DEVICE_BINDING_CONDITIONS)
        && !anyResult(old, r -> !isEmpty(r.getBindingConditions())
            || !isEmpty(r.getBindingFailureConditions()))) {
      for (DeviceRequestAllocationResult result : results(claim)) {
        result.setBindingConditions(new ArrayList<>());
        result.setBindingFailureConditions(new ArrayList<>());
      }
    }
  }

  /**
   * Removes the {@code status.devices} entries of devices (and shares) the stored allocation had
   * and the new one does not: stale entries after deallocation. Does nothing when the device
   * status gate is off and the stored claim has no device status.
   */
  private static void dropDeallocatedStatusDevices(ResourceClaim claim, ResourceClaim old,
      FeatureGates gates) {
    if (!gates.enabled(FeatureGates.DRA_RESOURCE_CLAIM_DEVICE_STATUS) && !usesDeviceStatus(old)) {
      return;
    }
    Set<List<String>> deallocated = new HashSet<>();
    results(old).forEach(r -> deallocated.add(id(r.getDriver(), r.getPool(), r.getDevice(),
        r.getShareID())));
    results(claim).forEach(r -> deallocated.remove(id(r.getDriver(), r.getPool(), r.getDevice(),
        r.getShareID())));
    ResourceClaimStatus status = claim.getStatus();
    List<AllocatedDeviceStatus> kept = new ArrayList<>();
    for (AllocatedDeviceStatus device : devices(status)) {
      if (!deallocated.contains(id(device.getDriver(), device.getPool(), device.getDevice(),
          device.getShareID()))) {
        kept.add(device);
      }
    }
    status.setDevices(kept);
  }

  private static List<String> id(String driver, String pool, String device, String shareId) {
    return Arrays.asList(driver, pool, device, shareId);
  }

  private static boolean usesDeviceStatus(ResourceClaim claim) {
    return claim != null && claim.getStatus() != null && !isEmpty(claim.getStatus().getDevices());
  }

  private static boolean usesConsumableCapacity(ResourceClaim claim) {
    if (claim == null) {
      return false;
    }
    if (ClaimSpecFields.usesConsumableCapacity(claim.getSpec())) {
      return true;
    }
    if (anyResult(claim, r -> r.getShareID() != null
        || (r.getConsumedCapacity() != null && !r.getConsumedCapacity().isEmpty()))) {
      return true;
    }
    return claim.getStatus() != null
        && devices(claim.getStatus()).stream().anyMatch(d -> d.getShareID() != null);
  }

  private static boolean anyResult(ResourceClaim claim,
      Predicate<DeviceRequestAllocationResult> test) {
    return results(claim).stream().anyMatch(test);
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaim claim) {
    if (claim == null || claim.getStatus() == null || claim.getStatus().getAllocation() == null
        || claim.getStatus().getAllocation().getDevices() == null
        || claim.getStatus().getAllocation().getDevices().getResults() == null) {
      return List.of();
    }
    return claim.getStatus().getAllocation().getDevices().getResults().stream()
        .filter(r -> r != null).toList();
  }

  private static List<AllocatedDeviceStatus> devices(ResourceClaimStatus status) {
    if (status == null || status.getDevices() == null) {
      return List.of();
    }
    return status.getDevices().stream().filter(d -> d != null).toList();
  }

  private static boolean isEmpty(List<?> list) {
    return list == null || list.isEmpty();
  }
}
