package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.resourceclaim.config.ConfigResolver;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import java.util.List;

/**
 * The driver's configuration API: one {@link ConfigScheme} for the kubelet plugin and the
 * admission webhook, so both accept and refuse the same configurations in the same words. It
 * reads the driver's own API ({@value #API_VERSION}) and, for users switching from NVIDIA's DRA
 * driver, NVIDIA's ({@value #NVIDIA_API_VERSION}); both map onto the same sharing settings.
 */
public final class GpuConfigs {

  /** The API group and version of the driver's configuration types. */
  public static final String API_VERSION = "gpu.resource.dra4j.io/v1alpha1";

  /** The API group and version of NVIDIA's DRA driver's configuration types. */
  public static final String NVIDIA_API_VERSION = "resource.nvidia.com/v1beta1";

  /**
   * {@link GpuConfig} and {@link MigDeviceConfig}; NVIDIA's {@code GpuConfig} ({@link
   * NvidiaGpuConfig}) and {@code MigDeviceConfig} ({@link NvidiaMigDeviceConfig}); all decoded
   * strictly. NVIDIA's other kinds ({@code VfioDeviceConfig}, {@code LocalIPCConfig}, {@code
   * ComputeDomainChannelConfig}, {@code ComputeDomainDaemonConfig}) are refused as not supported
   * by this driver.
   */
  public static final ConfigScheme<SharingConfig> SCHEME = NvidiaUnsupportedKinds.register(
      ConfigScheme.builder(SharingConfig.class)
          .register(API_VERSION, "GpuConfig", GpuConfig.class)
          .register(API_VERSION, "MigDeviceConfig", MigDeviceConfig.class)
          .register(NVIDIA_API_VERSION, "GpuConfig", NvidiaGpuConfig.class)
          .register(NVIDIA_API_VERSION, "MigDeviceConfig", NvidiaMigDeviceConfig.class))
      .build();

  private GpuConfigs() {}

  /**
   * The resolver of a driver: DeviceClass configurations, then the claim's, over the defaults
   * (TimeSlicing with interval Default for GPUs and partitions, TimeSlicing for MIG devices; as
   * defaults, they change nothing on the devices).
   *
   * @param driverName the driver's name, whose opaque configurations are read
   * @return the resolver
   */
  public static ConfigResolver<SharingConfig> resolver(String driverName) {
    return ConfigResolver.of(SCHEME, driverName,
        List.<SharingConfig> of(GpuConfig.DEFAULT, new MigDeviceConfig(null).normalized()));
  }
}
