package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.resourceclaim.config.ConfigResolver;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import java.util.List;

/**
 * The driver's configuration API: one {@link ConfigScheme} for the kubelet plugin and the
 * admission webhook, so both accept and refuse the same configurations in the same words.
 */
public final class GpuConfigs {

  /** The API group and version of the driver's configuration types. */
  public static final String API_VERSION = "gpu.resource.dra4j.io/v1alpha1";

  /** {@link GpuConfig} and {@link MigDeviceConfig}, decoded strictly. */
  public static final ConfigScheme SCHEME = ConfigScheme.builder()
      .register(API_VERSION, "GpuConfig", GpuConfig.class)
      .register(API_VERSION, "MigDeviceConfig", MigDeviceConfig.class)
      .build();

  private GpuConfigs() {}

  /**
   * The resolver of a driver: DeviceClass configurations, then the claim's, over the defaults
   * (TimeSlicing with interval Default for GPUs and partitions, TimeSlicing for MIG devices).
   *
   * @param driverName the driver's name, whose opaque configurations are read
   * @return the resolver
   */
  public static ConfigResolver resolver(String driverName) {
    return ConfigResolver.of(SCHEME, driverName,
        List.of(GpuConfig.DEFAULT, new MigDeviceConfig(null).normalized()));
  }
}
