/**
 * kube-apiserver's validation of DeviceTaintRules (Kubernetes 1.36, served there as {@code
 * resource.k8s.io/v1alpha3} and {@code v1beta2}): the selector, the taint and the status.
 * Internal.
 */
package io.github.dra4j.resourceapi.internal.taintrule;
