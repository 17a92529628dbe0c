package io.github.dra4j.resourceclaim.config;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import java.util.List;

/**
 * Optional hooks for a configuration type registered with a {@link ConfigScheme}, usually
 * implemented by a record. The scheme calls {@link #normalized()} and then {@link #validate()} on
 * every object it decodes, always both and always in that order, so that a kubelet plugin and an
 * admission webhook that share a scheme accept and reject exactly the same configurations. A
 * registered type that does not implement this interface is used as decoded and applies to every
 * device.
 *
 * @param <T> the implementing type itself
 */
public interface DeviceConfig<T extends DeviceConfig<T>> {

  /**
   * This configuration with the defaults it implies filled in: for example a sharing strategy
   * that is left out becoming the driver's default strategy. Runs before {@link #validate()}, so
   * validation sees the values the driver will act on.
   *
   * @return the normalized configuration, of the same type; this object when nothing changes
   * @throws ConfigException or IllegalArgumentException for a value that cannot be normalized; the
   *     scheme reports it under {@code parameters}
   */
  @SuppressWarnings("unchecked")
  default T normalized() {
    return (T) this;
  }

  /**
   * Checks a normalized configuration.
   *
   * @return every problem found, with paths relative to the {@code parameters} object (see
   *     {@link ConfigProblem#of(String, String)}); empty when the configuration is valid
   */
  default List<ConfigProblem> validate() {
    return List.of();
  }

  /**
   * Whether this configuration can configure a device, for configuration types that fit some
   * devices of a driver only (a GPU configuration and a NIC in the same driver). A configuration
   * that names requests explicitly but does not apply to one of their devices is an error; one
   * that applies to all requests is passed over for such a device.
   *
   * @param device one of the driver's allocated devices
   * @return true if this configuration can be applied to the device; by default always
   */
  default boolean appliesTo(AllocatedDevice device) {
    return true;
  }
}
