/**
 * The defaults kube-apiserver applies to {@code resource.k8s.io} objects when it decodes them,
 * before the create or update strategy runs. Internal.
 */
package io.github.dra4j.resourceapi.internal.defaults;
