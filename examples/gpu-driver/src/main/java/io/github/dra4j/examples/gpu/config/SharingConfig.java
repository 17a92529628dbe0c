package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.util.Optional;

/**
 * A decoded configuration of this driver, of either API ({@value GpuConfigs#API_VERSION} or
 * NVIDIA's {@value GpuConfigs#NVIDIA_API_VERSION}): what prepare needs from it. The scheme's
 * common type, so prepare gets it from a configuration group without a cast.
 */
public sealed interface SharingConfig
    permits GpuConfig, MigDeviceConfig, NvidiaGpuConfig, NvidiaMigDeviceConfig,
    NvidiaUnsupportedKinds.Unsupported {

  /**
   * How the configuration's devices are shared, from a normalized, valid configuration.
   *
   * @return the setting to apply; empty if the configuration leaves the devices as the node has
   *     them (NVIDIA's configurations without {@code sharing})
   */
  Optional<SharingSetting> sharingSetting();
}
