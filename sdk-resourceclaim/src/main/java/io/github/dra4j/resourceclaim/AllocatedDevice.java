package io.github.dra4j.resourceclaim;

import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One device the scheduler allocated to a claim for one driver: an allocation result ({@code
 * status.allocation.devices.results[]}) as that driver reads it.
 *
 * @param request the request the device was allocated for; for a {@code firstAvailable} request
 *     the sub-request that was chosen ({@code gpu/large}), whose {@link RequestReference#request()}
 *     is the base request name a configuration or a container names
 * @param pool the pool in the driver's ResourceSlices
 * @param device the device's name in that pool
 * @param shareId for a device allocated several times at once (consumable capacity, alpha in
 *     Kubernetes 1.34), the ID of this share; null otherwise
 * @param adminAccess whether the claim asked for admin access: the device may be in use by other
 *     claims, and the driver must not change or reserve it
 * @param consumedCapacity for a shared device, the capacity this share takes, as Kubernetes
 *     quantity strings keyed by capacity name; empty otherwise
 * @param bindingConditions conditions that must hold before the pod is bound (device binding
 *     conditions, alpha in Kubernetes 1.34); empty for most devices
 */
public record AllocatedDevice(RequestReference request, String pool, String device,
    @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36") String shareId,
    boolean adminAccess,
    @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36") Map<String, String> consumedCapacity,
    @KubernetesAlpha(feature = "DRADeviceBindingConditions", since = "1.34", beta = "1.36") List<String> bindingConditions) {

  /**
   * Checks and copies.
   *
   * @param request not null
   * @param pool not null
   * @param device not null
   * @param shareId null or not empty
   * @param adminAccess as allocated
   * @param consumedCapacity null means empty; copied in name order
   * @param bindingConditions null means empty; copied
   * @throws NullPointerException naming a required component that is null
   * @throws IllegalArgumentException if {@code shareId} is empty
   */
  public AllocatedDevice {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(device, "device");
    if (shareId != null && shareId.isEmpty()) {
      throw new IllegalArgumentException("shareId is empty; use null for a device that is not"
          + " shared");
    }
    consumedCapacity = consumedCapacity == null ? Map.of()
        : Collections.unmodifiableMap(new TreeMap<>(consumedCapacity));
    bindingConditions = bindingConditions == null ? List.of() : List.copyOf(bindingConditions);
  }

  /**
   * A device allocated exclusively, with no admin access: the common case.
   *
   * @param request the request name, {@code req} or {@code req/sub}
   * @param pool the pool
   * @param device the device
   * @return the device
   */
  public static AllocatedDevice of(String request, String pool, String device) {
    return new AllocatedDevice(RequestReference.parse(request), pool, device, null, false,
        Map.of(), List.of());
  }

  /**
   * The share ID, for code that prefers not to see null.
   *
   * @return the share ID of a shared allocation, empty otherwise
   */
  @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36")
  public Optional<String> share() {
    return Optional.ofNullable(shareId);
  }

  /**
   * Whether this device is held by this claim alone, so two claims holding it at once is a
   * conflict: neither admin access nor a share of a device allocated several times.
   *
   * @return true for an exclusive allocation
   */
  public boolean isExclusive() {
    return !adminAccess && shareId == null;
  }

  /**
   * The base request name, as containers ({@code resources.claims[].request}) and device
   * configurations name it.
   *
   * @return {@code gpu} for {@code gpu} and for {@code gpu/large}
   */
  public String baseRequest() {
    return request.request();
  }

  /**
   * {@code <pool>/<device>}, plus {@code /<share ID>} for a share: the device's name in logs and
   * conflict messages.
   *
   * @return the device's full name
   */
  public String fullName() {
    return pool + "/" + device + (shareId == null ? "" : "/" + shareId);
  }
}
