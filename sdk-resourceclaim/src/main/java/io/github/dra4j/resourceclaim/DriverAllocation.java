package io.github.dra4j.resourceclaim;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one driver was allocated in a claim: the claim's reference and the allocation results
 * whose {@code driver} is this driver, in the claim's order. A claim may hold devices of several
 * drivers; each driver sees only its own.
 *
 * @param claim the claim
 * @param driverName the driver whose results these are
 * @param devices this driver's allocated devices, possibly none
 */
public record DriverAllocation(ClaimReference claim, String driverName,
    List<AllocatedDevice> devices) {

  /**
   * Checks and copies.
   *
   * @param claim not null
   * @param driverName not null
   * @param devices not null; copied
   */
  public DriverAllocation {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(driverName, "driverName");
    devices = List.copyOf(devices);
  }

  /**
   * Reads a driver's allocation results from an allocated claim.
   *
   * @param claim a {@code resource.k8s.io/v1} claim with {@code status.allocation} set
   * @param driverName the driver whose results to keep
   * @return the driver's view of the claim
   * @throws IllegalArgumentException naming the claim and the field when the claim is not
   *     allocated or a result of this driver lacks its request, pool or device
   */
  public static DriverAllocation of(ResourceClaim claim, String driverName) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(driverName, "driverName");
    var meta = claim.getMetadata();
    ClaimReference ref = new ClaimReference(
        meta == null || meta.getNamespace() == null ? "" : meta.getNamespace(),
        meta == null || meta.getName() == null ? "" : meta.getName(),
        meta == null || meta.getUid() == null ? "" : meta.getUid());
    if (claim.getStatus() == null || claim.getStatus().getAllocation() == null
        || claim.getStatus().getAllocation().getDevices() == null) {
      throw new IllegalArgumentException(
          "claim " + ref.namespacedName() + ": status.allocation.devices is not set");
    }
    List<DeviceRequestAllocationResult> results = claim.getStatus().getAllocation().getDevices()
        .getResults();
    List<AllocatedDevice> devices = new ArrayList<>();
    for (int i = 0; results != null && i < results.size(); i++) {
      DeviceRequestAllocationResult result = results.get(i);
      if (result == null || !driverName.equals(result.getDriver())) {
        continue;
      }
      String field = "status.allocation.devices.results[" + i + "]";
      devices.add(new AllocatedDevice(
          RequestReference.parse(required(ref, field + ".request", result.getRequest())),
          required(ref, field + ".pool", result.getPool()),
          required(ref, field + ".device", result.getDevice()),
          result.getShareID() == null || result.getShareID().isEmpty()
              ? null : result.getShareID(),
          Boolean.TRUE.equals(result.getAdminAccess()),
          quantities(result.getConsumedCapacity()),
          result.getBindingConditions()));
    }
    return new DriverAllocation(ref, driverName, devices);
  }

  private static String required(ClaimReference claim, String field, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(
          "claim " + claim.namespacedName() + ": " + field + " is empty");
    }
    return value;
  }

  private static Map<String, String> quantities(Map<String, Quantity> values) {
    Map<String, String> strings = new LinkedHashMap<>();
    if (values != null) {
      values.forEach((name, quantity) -> {
        if (quantity != null) {
          strings.put(name, quantity.toString());
        }
      });
    }
    return strings;
  }

  /**
   * The devices allocated for one request, including all of its sub-requests.
   *
   * @param request a base request ({@code gpu}) or a sub-request ({@code gpu/large})
   * @return the matching devices in claim order
   */
  public List<AllocatedDevice> devicesFor(RequestReference request) {
    return devices.stream().filter(d -> request.covers(d.request())).toList();
  }
}
