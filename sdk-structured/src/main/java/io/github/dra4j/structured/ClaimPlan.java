package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.List;

/**
 * One claim of an attempt, validated: its requests (each one plan, or the plans of its {@code
 * firstAvailable} subrequests in order) and its constraints. The constraints are mutable search
 * state; a ClaimPlan is owned by one allocation attempt.
 *
 * @param claim the (defaulted copy of the) claim
 * @param requests per request, the candidate plans (one, or one per subrequest)
 * @param constraints the claim's constraints
 */
record ClaimPlan(ResourceClaim claim, List<List<RequestPlan>> requests,
    List<Constraint> constraints) {

  /** Returns the claim as Kubernetes names it in messages. */
  String name() {
    return ClaimNames.of(claim);
  }
}
