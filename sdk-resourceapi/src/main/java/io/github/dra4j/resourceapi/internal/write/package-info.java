/**
 * kube-apiserver's write path for {@code resource.k8s.io}: each kind's defaults, strategy and
 * validation in the order the server's registry runs them, behind {@link
 * io.github.dra4j.resourceapi.ResourceApiRules}. Internal.
 */
package io.github.dra4j.resourceapi.internal.write;
