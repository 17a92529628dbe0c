package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of an allocation attempt, as the scheduler would see it: every claim {@link
 * Allocated}, the claims {@link Unsatisfiable} on this node (no combination of devices works), or
 * the attempt {@link Failed} with an error (bad selector, bad request, invalid pools...).
 */
public sealed interface AllocationOutcome
    permits AllocationOutcome.Allocated, AllocationOutcome.Unsatisfiable, AllocationOutcome.Failed {

  /** The scheduler's message for claims that cannot be allocated on a node. */
  String CANNOT_ALLOCATE = "cannot allocate all claims";

  /**
   * All claims were allocated.
   *
   * @param claims copies of the claims, in input order, with {@code status.allocation} set
   */
  record Allocated(List<ResourceClaim> claims) implements AllocationOutcome {
    /**
     * Copies the list.
     *
     * @param claims the allocated claim copies, in input order; copied, not empty in practice,
     *     no null elements
     * @throws NullPointerException if the list or one of its elements is null
     */
    public Allocated {
      claims = List.copyOf(claims);
    }

    /**
     * Returns the first (for a single-claim allocation: the only) allocated claim.
     *
     * @return the copy of the first input claim, with {@code status.allocation} set
     * @throws IndexOutOfBoundsException if the outcome was built with an empty list
     */
    public ResourceClaim claim() {
      return claims.get(0);
    }
  }

  /**
   * No combination of devices satisfies the claims on this node; not an error.
   *
   * @param reason {@value #CANNOT_ALLOCATE}, the scheduler's wording
   */
  record Unsatisfiable(String reason) implements AllocationOutcome {
    /**
     * Checks the reason.
     *
     * @param reason the message to report; the allocator always uses {@value #CANNOT_ALLOCATE};
     *     not null
     * @throws NullPointerException if {@code reason} is null
     */
    public Unsatisfiable {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * The attempt failed with an error, worded like the Kubernetes allocator's.
   *
   * @param reason e.g. {@code class gpu: selector #0: CEL compile error: ...}
   * @param nodeLocal true when the error only concerns this node ({@code invalid resource pools
   *     were encountered: <pool>: <why>}; Kubernetes stops after the first part), so another node
   *     might still work
   */
  record Failed(String reason, boolean nodeLocal) implements AllocationOutcome {
    /**
     * Checks the reason.
     *
     * @param reason the error in the Kubernetes allocator's words; not null
     * @param nodeLocal true when only this node's pools are at fault (invalid resource pools), so
     *     another node might still work; false otherwise (errors in claims, classes or selectors,
     *     or a search aborted at its step limit)
     * @throws NullPointerException if {@code reason} is null
     */
    public Failed {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * Returns true when the claims were allocated.
   *
   * @return true for {@link Allocated}; false for {@link Unsatisfiable} and {@link Failed}
   */
  default boolean isAllocated() {
    return this instanceof Allocated;
  }

  /**
   * Returns why the claims were not allocated; empty when they were.
   *
   * @return the {@code reason} of an {@link Unsatisfiable} or {@link Failed} outcome; empty for
   *     {@link Allocated}
   */
  default Optional<String> failureReason() {
    if (this instanceof Unsatisfiable unsatisfiable) {
      return Optional.of(unsatisfiable.reason());
    }
    if (this instanceof Failed failed) {
      return Optional.of(failed.reason());
    }
    return Optional.empty();
  }
}
