package io.github.dra4j.cli.explain;

import java.util.List;

/**
 * Everything {@code dra4j explain} prints: the target, its claims and, for claims that are not
 * allocated, the allocation attempts node by node. Immutable.
 *
 * @param kind {@code ResourceClaim}, {@code Pod} or {@code ResourceClaimTemplate}
 * @param namespace the target's namespace
 * @param name the target's name
 * @param notes remarks about the target as a whole (which nodes were tried and why, a pod's
 *     node), one sentence each
 * @param claims one report per claim, in the pod's order for a pod
 * @param nodes the allocation attempts for the pending claims, one per node tried; empty when
 *     every claim is allocated
 * @param events the Events about the target's pods and the pods its claims are reserved for
 */
record Report(String kind, String namespace, String name, List<String> notes,
    List<ClaimReport> claims, List<NodeAttempt> nodes, EventLog events) {

  Report {
    notes = List.copyOf(notes);
    claims = List.copyOf(claims);
    nodes = List.copyOf(nodes);
  }
}
