/**
 * kube-apiserver's validation of ResourceSlices (Kubernetes 1.36): the spec, its devices with their
 * attributes, capacities, taints, counter consumptions, node selection and binding conditions, and
 * the shared counter sets. Internal.
 */
package io.github.dra4j.resourceapi.internal.slice;
