/**
 * Exact Kubernetes resource quantities ({@link io.github.dra4j.core.quantity.QuantityValue}):
 * parsed with the Kubernetes grammar and error texts ({@code 80Gi}, {@code 1500m}, {@code 1e3}),
 * compared and added without rounding. The one quantity arithmetic of dra4j: DRA CEL's {@code
 * quantity()} values, device capacities and counters in the allocator, and the ResourceSlice
 * controller's comparison of published and desired slices all use it, so {@code 1Gi} and {@code
 * 1024Mi} are the same everywhere. Follows {@code k8s.io/apimachinery/pkg/api/resource} of
 * Kubernetes 1.36.
 */
package io.github.dra4j.core.quantity;
