/**
 * Opaque device configurations of a driver: {@link
 * io.github.dra4j.resourceclaim.config.ConfigScheme} maps the {@code apiVersion} and {@code kind}
 * of an opaque {@code parameters} object to a Java type and decodes it strictly, then normalizes
 * and validates it ({@link io.github.dra4j.resourceclaim.config.DeviceConfig}) in the same call,
 * so a kubelet plugin and an admission webhook that share a scheme cannot disagree about a
 * configuration. {@link io.github.dra4j.resourceclaim.config.ConfigResolver} then picks, for each
 * device of an allocated claim, the configuration that applies to it by precedence (driver
 * defaults, DeviceClass entries, claim entries, later entries first) and by the requests each
 * names, and returns the devices grouped by configuration ({@link
 * io.github.dra4j.resourceclaim.config.ConfigGroup}).
 *
 * <p>Problems are {@link io.github.dra4j.resourceclaim.config.ConfigException}s that carry every
 * {@link io.github.dra4j.resourceclaim.config.ConfigProblem} of a claim, each naming its field
 * path and the offending value. Uses Jackson for JSON and the fabric8 model; no API client.
 */
package io.github.dra4j.resourceclaim.config;
