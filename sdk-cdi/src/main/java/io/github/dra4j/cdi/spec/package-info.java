/**
 * The CDI spec model for spec versions 0.3.0 to 1.1.0: immutable records with builders whose JSON
 * field names are the specification's ({@link io.github.dra4j.cdi.spec.CdiSpec}, devices,
 * container edits), the known versions and the minimum-version rule.
 */
package io.github.dra4j.cdi.spec;
