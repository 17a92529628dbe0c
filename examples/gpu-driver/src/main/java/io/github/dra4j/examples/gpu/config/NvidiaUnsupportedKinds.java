package io.github.dra4j.examples.gpu.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import java.util.List;

/**
 * The kinds of NVIDIA's configuration API ({@value GpuConfigs#NVIDIA_API_VERSION}) this driver
 * does not implement. Each is registered so that a claim using one is refused with a message
 * naming the kind and saying it is not supported, whatever its fields, rather than as an unknown
 * type or for a field.
 */
final class NvidiaUnsupportedKinds {

  private NvidiaUnsupportedKinds() {}

  /**
   * Registers every unsupported kind.
   *
   * @param scheme the scheme being built
   * @return the builder
   */
  static ConfigScheme.Builder register(ConfigScheme.Builder scheme) {
    return scheme
        .register(GpuConfigs.NVIDIA_API_VERSION, "VfioDeviceConfig", Vfio.class)
        .register(GpuConfigs.NVIDIA_API_VERSION, "LocalIPCConfig", LocalIpc.class)
        .register(GpuConfigs.NVIDIA_API_VERSION, "ComputeDomainChannelConfig",
            ComputeDomainChannel.class)
        .register(GpuConfigs.NVIDIA_API_VERSION, "ComputeDomainDaemonConfig",
            ComputeDomainDaemon.class);
  }

  private static List<ConfigProblem> refused(String kind, String why) {
    return List.of(ConfigProblem.of("kind", "\"" + kind + "\" of "
        + GpuConfigs.NVIDIA_API_VERSION + " is not supported by this driver: " + why));
  }

  /** VFIO passthrough. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Vfio() implements DeviceConfig<Vfio> {
    @Override
    public List<ConfigProblem> validate() {
      return refused("VfioDeviceConfig", "it has no VFIO passthrough devices");
    }
  }

  /** NVIDIA's local IPC configuration. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record LocalIpc() implements DeviceConfig<LocalIpc> {
    @Override
    public List<ConfigProblem> validate() {
      return refused("LocalIPCConfig", "it configures GPUs with GpuConfig and MigDeviceConfig"
          + " only");
    }
  }

  /** A channel of NVIDIA's compute domains (IMEX). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record ComputeDomainChannel() implements DeviceConfig<ComputeDomainChannel> {
    @Override
    public List<ConfigProblem> validate() {
      return refused("ComputeDomainChannelConfig", "compute domains belong to NVIDIA's"
          + " compute-domain.nvidia.com driver");
    }
  }

  /** A daemon of NVIDIA's compute domains (IMEX). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record ComputeDomainDaemon() implements DeviceConfig<ComputeDomainDaemon> {
    @Override
    public List<ConfigProblem> validate() {
      return refused("ComputeDomainDaemonConfig", "compute domains belong to NVIDIA's"
          + " compute-domain.nvidia.com driver");
    }
  }
}
