/**
 * How stable a piece of the API is. {@link io.github.dra4j.core.stability.KubernetesAlpha} marks
 * API that exists for a Kubernetes feature that is still alpha: Kubernetes may change or drop such
 * a feature in any of its minor releases, so dra4j may change or remove the API that follows it in
 * a minor release of its own (never in a patch release), and lists the change in its changelog.
 * Everything else keeps the promises of {@code docs/versioning.md}.
 */
package io.github.dra4j.core.stability;
