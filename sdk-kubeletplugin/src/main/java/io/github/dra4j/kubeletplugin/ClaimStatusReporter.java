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
 * KubeletPluginBuilder#claimStatus(boolean)}.
 *
 * <p>Writes go to the {@code resourceclaims/status} subresource in the background, so a status
 * write never delays or fails a prepare: the reporter reads the claim, keeps the entries of other
 * drivers and this driver's entries for other devices, puts in the reported ones, and writes the
 * status back, reading again and retrying when another writer got there first (HTTP 409). A write
 * that cannot succeed (the claim is gone or was replaced, permission is missing) is handed to
 * {@link DraDriver#handleError} as a {@link RecoverableException}. After each successful
 * unprepare, the plugin removes this driver's entries from the claim the same way. Thread-safe.
 */
public interface ClaimStatusReporter {

  /**
   * Reports the status of some of this driver's devices in a claim.
   *
   * @param claim the claim, as the driver got it in prepare (its UID guards against writing to a
   *     new claim of the same name)
   * @param devices one entry per device; {@code driver} may be left empty (this driver's name is
   *     put in), {@code pool}, {@code device} and optional {@code shareID} must name one of this
   *     driver's allocation results in the claim
   * @return completes when the status is written, or exceptionally with the reason it was not
   *     (also reported to {@code handleError})
   * @throws IllegalArgumentException at once if an entry names another driver or a device not
   *     allocated to this driver in the claim
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
