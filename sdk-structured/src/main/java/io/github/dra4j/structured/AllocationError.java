package io.github.dra4j.structured;

/**
 * An error that aborts an allocation attempt, with the Kubernetes allocator's wording. Internal:
 * {@link StructuredAllocator} turns it into {@link AllocationOutcome.Failed}.
 */
final class AllocationError extends Exception {

  private static final long serialVersionUID = 1L;

  private final boolean nodeLocal;

  AllocationError(String message) {
    this(message, false, null);
  }

  AllocationError(String message, Throwable cause) {
    this(message, false, cause);
  }

  AllocationError(String message, boolean nodeLocal, Throwable cause) {
    super(message, cause);
    this.nodeLocal = nodeLocal;
  }

  /** Returns true when only this node is affected. */
  boolean nodeLocal() {
    return nodeLocal;
  }
}
