/**
 * Kubernetes name formats ({@link io.github.dra4j.core.name.NameRules}): RFC 1123 DNS labels and
 * subdomains, DRA driver and pool names, qualified attribute names, label keys and values, each
 * check answering with the API server's wording so a driver finds out before the API server
 * refuses an object. Follows the validation of Kubernetes 1.34 to 1.36 ({@code resource.k8s.io/v1}).
 */
package io.github.dra4j.core.name;
