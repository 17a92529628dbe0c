/**
 * kube-apiserver's validation of ResourceClaim specs and ResourceClaimTemplates (Kubernetes 1.36),
 * with the rules of a claim's device requests, constraints, configuration and CEL selectors that
 * DeviceClasses and the claim status rules share. Internal.
 */
package io.github.dra4j.resourceapi.internal.claim;
