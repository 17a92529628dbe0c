package io.github.dra4j.resourceclaim.config;

/**
 * Where a configuration that applies to an allocated device came from, from lowest to highest
 * precedence.
 */
public enum ConfigSource {
  /** A default the driver itself supplies; it applies to every request. */
  DRIVER_DEFAULT,
  /** A configuration of a DeviceClass, copied into the allocation as {@code FromClass}. */
  CLASS,
  /** A configuration of the claim itself, copied into the allocation as {@code FromClaim}. */
  CLAIM
}
