package io.github.dra4j.testing.allocator;

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
    /** Copies the list. */
    public Allocated {
      claims = List.copyOf(claims);
    }

    /** Returns the first (for a single-claim allocation: the only) allocated claim. */
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
    /** Checks the reason. */
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
    /** Checks the reason. */
    public Failed {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Returns true when the claims were allocated. */
  default boolean isAllocated() {
    return this instanceof Allocated;
  }

  /** Returns why the claims were not allocated; empty when they were. */
  default Optional<String> failureReason() {
    if (this instanceof Unsatisfiable) {
      return Optional.of(((Unsatisfiable) this).reason());
    }
    if (this instanceof Failed) {
      return Optional.of(((Failed) this).reason());
    }
    return Optional.empty();
  }
}
