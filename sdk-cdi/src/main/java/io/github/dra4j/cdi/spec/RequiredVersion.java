package io.github.dra4j.cdi.spec;

/**
 * The lowest spec version a spec needs and the feature that needs it.
 *
 * @param version the lowest version a runtime must know to accept the spec
 * @param feature the first feature (in the library's check order) that requires {@code version},
 *     e.g. {@code containerEdits.additionalGids}; {@code none} for 0.3.0
 */
public record RequiredVersion(CdiVersion version, String feature) {}
