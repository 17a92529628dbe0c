/**
 * What kube-apiserver's create and update strategies do to {@code resource.k8s.io} objects around
 * validation: status and spec separation, generation, fields dropped behind feature gates, fields
 * set by the server, and warnings. Internal.
 */
package io.github.dra4j.resourceapi.internal.strategy;
