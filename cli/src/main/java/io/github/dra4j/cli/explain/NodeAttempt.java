package io.github.dra4j.cli.explain;

import io.github.dra4j.structured.AllocationExplanation;
import java.util.List;

/**
 * One node the target's pending claims were tried on, as the scheduler would: the allocator's
 * explanation for that node. Immutable.
 *
 * @param node the node's name
 * @param explanation what the allocator made of the pending claims there, device by device
 */
record NodeAttempt(String node, AllocationExplanation explanation) {

  /**
   * Returns the attempt's outcome as a stable word.
   *
   * @return {@code allocatable}, {@code unsatisfiable} or {@code failed}
   */
  String outcome() {
    if (explanation.outcome().isAllocated()) {
      return "allocatable";
    }
    return explanation.outcome() instanceof io.github.dra4j.structured.AllocationOutcome.Failed
        ? "failed" : "unsatisfiable";
  }

  /**
   * The allocator's message.
   *
   * @return empty when allocatable, else {@code cannot allocate all claims} or the error
   */
  String message() {
    return explanation.outcome().failureReason().orElse("");
  }

  /** The explanation's claims, for renderers. */
  List<AllocationExplanation.ClaimExplanation> claims() {
    return explanation.claims();
  }
}
