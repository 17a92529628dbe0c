/**
 * What every DRA component needs to know about a ResourceClaim, free of gRPC and of any API
 * client: {@link io.github.dra4j.resourceclaim.ClaimReference} names a claim (namespace, name,
 * UID) as the kubelet sends it, and {@link io.github.dra4j.resourceclaim.RequestReference} names a
 * request or sub-request of a claim as allocation results and device configurations do, and
 * {@link io.github.dra4j.resourceclaim.DriverAllocation} is one driver's view of an allocated
 * claim: its {@link io.github.dra4j.resourceclaim.AllocatedDevice}s, with the base request name of
 * a sub-request result, share ID, admin access, consumed capacity and binding conditions.
 *
 * <p>The counterpart of Go's {@code k8s.io/dynamic-resource-allocation/resourceclaim} package;
 * kubelet plugins, admission webhooks, controllers and the structured allocator share it. It
 * depends on the fabric8 model only, not on an API client. All types are immutable.
 */
package io.github.dra4j.resourceclaim;
