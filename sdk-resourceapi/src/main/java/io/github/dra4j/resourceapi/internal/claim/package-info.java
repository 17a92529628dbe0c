/**
 * kube-apiserver's validation of ResourceClaims (Kubernetes 1.36): the spec (device requests,
 * constraints, configuration and CEL selectors, which ResourceClaimTemplates and DeviceClasses
 * share) and status updates (allocation, reservations, the device status drivers write). Internal.
 */
package io.github.dra4j.resourceapi.internal.claim;
