package io.github.dra4j.testing.kubelet;

import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * What came of one {@code NodePrepareResources} call, judged the way the kubelet judges it.
 *
 * <p>{@code results} holds every entry the plugin answered, in the order of its answer, as the
 * kubelet received it: per device the request names, pool, device name, CDI IDs and (over v1 only)
 * the share ID.
 *
 * @param plugin the instance that was called; null if the driver had no registered instance
 * @param claims the claims the kubelet asked for
 * @param results the plugin's answer keyed by claim UID (empty if the call failed)
 * @param error null if the kubelet accepts the answer; else its error text: a gRPC failure
 *     ({@code rpc error: code = ... desc = ...}), {@code NodePrepareResources returned result for
 *     unknown claim UID <uid>}, {@code NodePrepareResources failed for ResourceClaim <name>:
 *     <error>}, {@code NodePrepareResources skipped <n> ResourceClaims}, or {@code DRA driver
 *     <driver> is not registered}
 */
public record PrepareOutcome(
    RegisteredPlugin plugin,
    List<ClaimReference> claims,
    Map<String, ClaimResult> results,
    String error) {

  /**
   * Copies the claims and results, keeping the answer's order.
   *
   * @param plugin the instance that was called
   * @param claims the claims the kubelet asked for
   * @param results the plugin's answer keyed by claim UID (empty if the call failed)
   * @param error null if the kubelet accepts the answer
   */
  public PrepareOutcome {
    claims = List.copyOf(claims);
    results = Collections.unmodifiableMap(new LinkedHashMap<>(results));
  }

  /**
   * Whether the kubelet would start the pod's containers with this answer.
   *
   * @return true if {@link #error()} is null
   */
  public boolean isSuccess() {
    return error == null;
  }

  /**
   * The plugin's answer for one claim.
   *
   * @param claimUid the claim's UID
   * @return the result
   * @throws NoSuchElementException naming the UID and the answered UIDs if there is none
   */
  public ClaimResult result(String claimUid) {
    ClaimResult result = results.get(Objects.requireNonNull(claimUid, "claimUid"));
    if (result == null) {
      throw new NoSuchElementException("no prepare result for claim UID " + claimUid
          + "; the plugin answered " + results.keySet() + (error == null ? "" : "; " + error));
    }
    return result;
  }

  /**
   * The devices prepared for one claim.
   *
   * @param claimUid the claim's UID
   * @return the devices, empty if the claim failed
   * @throws NoSuchElementException if the plugin did not answer for the claim
   */
  public List<Device> devices(String claimUid) {
    return result(claimUid).devices();
  }

  /**
   * The plugin's answer for one claim.
   *
   * @param devices the prepared devices (empty when failed)
   * @param error null on success, else the plugin's error for this claim
   */
  public record ClaimResult(List<Device> devices, String error) {

    /**
     * Copies the device list.
     *
     * @param devices the prepared devices, copied
     * @param error null on success, else the plugin's error for this claim
     */
    public ClaimResult {
      devices = List.copyOf(devices);
    }

    /**
     * Whether the plugin failed this claim.
     *
     * @return true if {@link #error()} is set
     */
    public boolean isFailed() {
      return error != null;
    }
  }

  /**
   * One prepared device as the kubelet received it.
   *
   * @param requestNames the claim's top-level requests the device serves; empty means all
   * @param poolName the device's pool
   * @param deviceName the device's name in its pool
   * @param cdiDeviceIds the CDI device IDs the container runtime resolves
   * @param shareId the share ID of a device allocated as a share, over v1 only; else null
   */
  public record Device(List<String> requestNames, String poolName, String deviceName,
      List<String> cdiDeviceIds, String shareId) {

    /**
     * Copies the lists.
     *
     * @param requestNames the claim's top-level requests the device serves, copied
     * @param poolName the device's pool
     * @param deviceName the device's name in its pool
     * @param cdiDeviceIds the CDI device IDs, copied
     * @param shareId the share ID, or null
     */
    public Device {
      requestNames = List.copyOf(requestNames);
      Objects.requireNonNull(poolName, "poolName");
      Objects.requireNonNull(deviceName, "deviceName");
      cdiDeviceIds = List.copyOf(cdiDeviceIds);
    }
  }
}
