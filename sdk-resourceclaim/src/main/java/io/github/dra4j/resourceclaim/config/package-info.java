/**
 * Opaque device configurations of a driver: {@link
 * io.github.dra4j.resourceclaim.config.ConfigScheme} maps the {@code apiVersion} and {@code kind}
 * of an opaque {@code parameters} object to a Java type and decodes it strictly, then normalizes
 * and validates it ({@link io.github.dra4j.resourceclaim.config.DeviceConfig}) in the same call,
 * so a kubelet plugin and an admission webhook that share a scheme cannot disagree about a
 * configuration.
 *
 * <p>Problems are {@link io.github.dra4j.resourceclaim.config.ConfigException}s that carry every
 * {@link io.github.dra4j.resourceclaim.config.ConfigProblem} found, each naming its field path
 * and the offending value. Uses Jackson for JSON and the fabric8 model; no API client.
 */
package io.github.dra4j.resourceclaim.config;
