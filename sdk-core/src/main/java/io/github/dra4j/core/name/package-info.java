/**
 * Kubernetes name formats: {@link io.github.dra4j.core.name.NameFormats} has the formats of
 * Kubernetes 1.36 with the API server's exact texts; {@link io.github.dra4j.core.name.NameRules}
 * builds the server's answer for DNS labels and subdomains, DRA driver and pool names, qualified
 * attribute names, label keys and values on them (plus dra4j's own file-name rule for UIDs), so a
 * driver finds out before the API server refuses an object; {@link
 * io.github.dra4j.core.name.GoStrings} prints a refused value as the server does.
 */
package io.github.dra4j.core.name;
