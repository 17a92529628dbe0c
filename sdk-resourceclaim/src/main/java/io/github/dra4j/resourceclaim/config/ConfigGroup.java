package io.github.dra4j.resourceclaim.config;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import java.util.List;
import java.util.Objects;

/**
 * One configuration and the allocated devices it applies to, so that a driver can apply each
 * configuration once to all of its devices (a sharing setup across several GPUs, say).
 *
 * @param config the decoded, normalized and validated configuration object, typed by the
 *     scheme ({@link ConfigScheme#builder(Class)}) so that a driver needs no cast
 * @param source where it came from
 * @param index its index in {@code status.allocation.devices.config[]}, or for a {@link
 *     ConfigSource#DRIVER_DEFAULT} its index in the resolver's defaults
 * @param devices the devices it applies to, in the claim's order; not empty
 * @param <C> the common supertype of the scheme's configuration types
 */
public record ConfigGroup<C>(C config, ConfigSource source, int index,
    List<AllocatedDevice> devices) {

  /**
   * Checks and copies.
   *
   * @param config not null
   * @param source not null
   * @param index not negative
   * @param devices not null; copied
   * @throws NullPointerException naming the null component
   * @throws IllegalArgumentException for a negative index
   */
  public ConfigGroup {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(source, "source");
    if (index < 0) {
      throw new IllegalArgumentException("index is negative: " + index);
    }
    devices = List.copyOf(devices);
  }
}
