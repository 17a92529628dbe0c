package io.github.dra4j.testing.node;

/**
 * A claim the structured allocator could not allocate on the simulated node; the message is the
 * scheduler's reason (for example {@code cannot allocate all claims}, or a CEL error naming the
 * class and selector).
 */
public final class AllocationFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param claim {@code <namespace>/<name>} of the claim
   * @param reason the allocator's reason
   */
  public AllocationFailedException(String claim, String reason) {
    super("claim " + claim + " cannot be allocated: " + reason);
  }
}
