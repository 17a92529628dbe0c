/**
 * The scheduler's structured-parameters allocator: which devices of the published ResourceSlices
 * a ResourceClaim gets on a node, and why it gets none. The counterpart of Go's {@code
 * k8s.io/dynamic-resource-allocation/structured} ("incubating" implementation, "experimental" with
 * list-typed attributes), following Kubernetes 1.36 and the allocator changes merged for 1.37:
 * same device order, backtracking, results and error texts.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.structured.StructuredAllocator}: allocates one claim or the claims
 *       of a pod together for one node; configured by its builder;
 *   <li>{@link io.github.dra4j.structured.AllocatorInputs}: what it sees of the cluster (classes,
 *       all slices, the node, claims already allocated);
 *   <li>{@link io.github.dra4j.structured.AllocationOutcome}: allocated copies of the claims,
 *       unsatisfiable on this node, or failed with the Kubernetes error;
 *   <li>{@link io.github.dra4j.structured.AllocatorFeatures}: the feature gates the allocator
 *       honours, one switch per gate;
 *   <li>{@link io.github.dra4j.structured.AllocationExplanation}: what {@code explain} adds to an
 *       allocation: per request every device considered and the first reason it cannot serve the
 *       request (false selector condition, taint, the claim holding it, counters, capacity,
 *       node), or the devices it would get. A separate entry: {@code allocate} never pays for it.
 * </ul>
 *
 * <p>Why is a claim still pending on a node? (with objects read from a cluster):
 *
 * <pre>{@code
 * AllocationOutcome outcome = StructuredAllocator.create().allocate(claim,
 *     AllocatorInputs.builder()
 *         .deviceClasses(deviceClasses)
 *         .slices(allSlices)
 *         .node(node)
 *         .allocatedClaims(allocatedClaims)
 *         .build());
 * System.out.println(outcome.failureReason().orElse("would be allocated"));
 * }</pre>
 *
 * <p>Threading: an allocator is immutable and thread-safe; each {@code allocate} call builds its
 * own search state. Selectors compile in {@link
 * io.github.dra4j.cel.DeviceSelectorEnvironment#stored()} unless the builder is given another
 * stored-expressions environment; its compile cache is the only state shared between calls.
 *
 * <p>Alpha and beta Kubernetes features, each behind a flag of {@link
 * io.github.dra4j.structured.AllocatorFeatures}: partitionable devices (shared counters,
 * per-device node selection), device taints and tolerations, consumable capacity (capacity
 * requests, devices allowing multiple allocations) and binding conditions are beta in Kubernetes
 * 1.36 and on by default; list-typed attributes are alpha and off by default. Their behaviour may
 * still change in Kubernetes, and this package will follow.
 *
 * <p>Deliberately not done: scoring between nodes or solutions (the first solution wins, as in
 * the scheduler); the scheduler's timeout (a cap on device placements stands in); applying
 * DeviceTaintRules (pass slices whose devices already carry the rules' taints, as the scheduler
 * does); writing anything to a cluster. Input objects are never modified.
 */
package io.github.dra4j.structured;
