package io.github.dra4j.kubeletplugin;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where a driver reports what it knows about its allocated devices in a claim's {@code
 * status.devices[]}: data as JSON, conditions, network data. Get it from {@link
 * KubeletPlugin#claimStatus()} after turning it on with {@link
 * ApiServerOptions#claimStatus()}.
 *
 * <p>Writes go to the {@code resourceclaims/status} subresource in the background, so a status
 * write never delays a prepare (a failed write does not fail it either): the reporter reads the claim, keeps the entries of other
 * drivers and this driver's entries for other devices, puts in the reported ones, and writes the
 * status back, reading again and retrying when another writer got there first (HTTP 409). A write
 * that cannot succeed (the claim is gone or was replaced, permission is missing) is handed to
 * {@link DraDriver#handleError} as a {@link RecoverableException}. After each successful
 * unprepare, the plugin removes this driver's entries from the claim the same way. Thread-safe.
 *
 * <p>A status is checked with the API server's rules ({@link
 * io.github.dra4j.resourceapi.ResourceApiRules#validateStatusUpdate}) before it is sent, so an
 * entry a cluster would refuse with 422 (a condition without a reason, an IP that is not a
 * canonical CIDR, data over 10 KiB or not a JSON object, two entries for one device, a device
 * not allocated in the claim) is never written: {@link #report} throws at once with the server's
 * message, and a write whose entries no longer fit the claim as read (its device was
 * deallocated meanwhile, say) fails its future with that message instead of being sent.
 */
public interface ClaimStatusReporter {

  /**
   * Reports the status of some of this driver's devices in a claim.
   *
   * @param claim the claim, as the driver got it in prepare (its UID guards against writing to a
   *     new claim of the same name)
   * @param devices one entry per device; an entry's driver may be left empty (this driver's
   *     name is put in), its pool, device and optional shareID must name one of this driver's
   *     allocation results in the claim
   * @return completes when the status is written, or exceptionally with the reason it was not
   *     (also reported to {@code handleError}): an {@link
   *     io.github.dra4j.resourceapi.InvalidResourceException} if the server's rules refuse the
   *     entries against the claim as read when writing; an {@link IllegalStateException} naming
   *     the URL if the API server did not answer within the plugin's {@code apiServerTimeout}
   *     from the report, the time spent behind earlier reports included
   * @throws io.github.dra4j.resourceapi.InvalidResourceException (an {@link
   *     IllegalArgumentException}) at once, with the API server's message naming the field and
   *     the value, if the server would refuse the claim's status with the entries put in, e.g.
   *     {@code ResourceClaim.resource.k8s.io "c" is invalid:
   *     status.devices[0].conditions[0].reason: Required value: must be set}; nothing is written
   * @throws IllegalArgumentException at once if an entry names another driver (a plugin writes
   *     only its own driver's entries)
   */
  CompletableFuture<Void> report(ResourceClaim claim, List<AllocatedDeviceStatus> devices);

  /**
   * Removes all of this driver's entries from a claim's status; the plugin does this itself
   * after a successful unprepare.
   *
   * @param claim the claim
   * @return completes when the entries are gone (at once if there were none)
   */
  CompletableFuture<Void> clear(ClaimReference claim);
}
