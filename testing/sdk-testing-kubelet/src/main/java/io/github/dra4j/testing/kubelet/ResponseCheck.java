package io.github.dra4j.testing.kubelet;

import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kubelet's checks of a prepare or unprepare answer: every entry must be for a requested
 * claim, no entry may carry an error, and every requested claim must have an entry. The first
 * violation, in the order of the answer, is the kubelet's error (Go walks the map in random order;
 * this one is deterministic). Stateless.
 */
final class ResponseCheck {

  private ResponseCheck() {}

  /**
   * Checks an answer.
   *
   * @param rpc {@code NodePrepareResources} or {@code NodeUnprepareResources}, for the texts
   * @param requested the claims that were asked for
   * @param errorsByUid the answer's per-claim error texts (empty for success), in answer order
   * @return null if the kubelet accepts the answer, else its error text
   */
  static String check(String rpc, List<ClaimReference> requested, Map<String, String> errorsByUid) {
    Map<String, ClaimReference> byUid = new HashMap<>();
    requested.forEach(claim -> byUid.put(claim.uid(), claim));
    for (Map.Entry<String, String> entry : errorsByUid.entrySet()) {
      ClaimReference claim = byUid.get(entry.getKey());
      if (claim == null) {
        return rpc + " returned result for unknown claim UID " + entry.getKey();
      }
      if (!entry.getValue().isEmpty()) {
        return rpc + " failed for ResourceClaim " + claim.name() + ": " + entry.getValue();
      }
    }
    int skipped = byUid.size() - errorsByUid.size();
    if (skipped > 0) {
      return rpc + " skipped " + skipped + " ResourceClaims";
    }
    return null;
  }
}
