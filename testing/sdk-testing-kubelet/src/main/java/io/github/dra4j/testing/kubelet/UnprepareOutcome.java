package io.github.dra4j.testing.kubelet;

import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * What came of one {@code NodeUnprepareResources} call, judged the way the kubelet judges it.
 *
 * @param plugin the instance that was called; null if the driver had no registered instance
 * @param claims the claims the kubelet asked for
 * @param results the plugin's answer keyed by claim UID, in the order of its answer (empty if the
 *     call failed); an empty per-claim error is a success
 * @param error null if the kubelet accepts the answer; else its error text, as for {@link
 *     PrepareOutcome#error()} with {@code NodeUnprepareResources} in place of {@code
 *     NodePrepareResources}
 */
public record UnprepareOutcome(
    RegisteredPlugin plugin,
    List<ClaimReference> claims,
    Map<String, ClaimResult> results,
    String error) {

  /**
   * Copies the claims and results, keeping the answer's order.
   *
   * @param plugin the instance that was called
   * @param claims the claims the kubelet asked for
   * @param results the plugin's answer keyed by claim UID, in the order of its answer
   * @param error null if the kubelet accepts the answer
   */
  public UnprepareOutcome {
    claims = List.copyOf(claims);
    results = Collections.unmodifiableMap(new LinkedHashMap<>(results));
  }

  /**
   * Whether the kubelet considers the claims unprepared.
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
      throw new NoSuchElementException("no unprepare result for claim UID " + claimUid
          + "; the plugin answered " + results.keySet() + (error == null ? "" : "; " + error));
    }
    return result;
  }

  /**
   * The plugin's answer for one claim.
   *
   * @param error null on success, else the plugin's error for this claim
   */
  public record ClaimResult(String error) {

    /**
     * Whether the plugin failed this claim.
     *
     * @return true if {@link #error()} is set
     */
    public boolean isFailed() {
      return error != null;
    }
  }
}
