/**
 * {@code dra4j explain}, also {@code kubectl dra4j explain}: reads a cluster's DeviceClasses,
 * ResourceSlices, ResourceClaims, Nodes and pods and tells why a claim (a pod's claims, a claim
 * template's claim) is not allocated or not prepared. Pending claims go through the SDK's
 * structured allocator with explanations on each node they could go to; allocated claims are
 * checked for their reservation, the driver's ResourceSlices on the node and their device status.
 * Text for people, JSON ({@code dra4j.io/explain/v1}) for scripts.
 */
package io.github.dra4j.cli.explain;
