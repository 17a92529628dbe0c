package io.github.dra4j.lifecycle.internal.store;

import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointData;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimEntry;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimPhase;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a claim asks for a device another claim holds on this node. A device allocated
 * exclusively (no admin access, no share ID) may be held by one claim at a time; an admin-access
 * claim or a share of a device allocated several times never conflicts. Claims of an earlier boot
 * hold nothing. Stateless.
 */
final class Conflicts {

  private Conflicts() {}

  /**
   * The first conflict of a claim with the claims of the checkpoint.
   *
   * @param claim the claim about to be prepared
   * @param data the checkpoint, which already holds the claims admitted earlier in the same call
   * @param bootId the current boot
   * @return a message naming the device and the other claim, or empty
   */
  static Optional<String> find(DriverAllocation claim, CheckpointData data, String bootId) {
    for (AllocatedDevice wanted : claim.devices()) {
      if (!wanted.isExclusive()) {
        continue;
      }
      for (Map.Entry<String, ClaimEntry> other : data.claims().entrySet()) {
        ClaimEntry entry = other.getValue();
        if (other.getKey().equals(claim.claim().uid()) || !bootId.equals(entry.bootId())) {
          continue;
        }
        for (AllocatedDevice held : entry.allocation()) {
          if (held.isExclusive() && held.pool().equals(wanted.pool())
              && held.device().equals(wanted.device())) {
            return Optional.of("device " + wanted.fullName() + " of request " + wanted.request()
                + (entry.phase() == ClaimPhase.UNPREPARE_STARTED
                    ? " is still held by claim " : " is already prepared for claim ")
                + entry.namespace() + "/" + entry.name() + " (uid " + other.getKey() + ")"
                + (entry.phase() == ClaimPhase.UNPREPARE_STARTED
                    ? ", whose unprepare has not finished" : "")
                + "; it must be unprepared first");
          }
        }
      }
    }
    return Optional.empty();
  }
}
