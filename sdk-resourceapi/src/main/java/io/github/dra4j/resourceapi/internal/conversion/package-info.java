/**
 * Conversion of {@code resource.k8s.io} objects between the API versions Kubernetes 1.36 serves
 * and {@code v1}, at the JSON level, and the fields of the newer {@code v1} model that 1.36 does
 * not know. Internal.
 */
package io.github.dra4j.resourceapi.internal.conversion;
