package io.github.dra4j.examples.gpu.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.util.List;
import java.util.Optional;

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
  static ConfigScheme.Builder<SharingConfig> register(ConfigScheme.Builder<SharingConfig> scheme) {
    return scheme
        .register(GpuConfigs.NVIDIA_API_VERSION, "VfioDeviceConfig", Vfio.class)
        .register(GpuConfigs.NVIDIA_API_VERSION, "LocalIPCConfig", LocalIpc.class)
        .register(GpuConfigs.NVIDIA_API_VERSION, "ComputeDomainChannelConfig",
            ComputeDomainChannel.class)
        .register(GpuConfigs.NVIDIA_API_VERSION, "ComputeDomainDaemonConfig",
            ComputeDomainDaemon.class);
  }

  /**
   * A kind this driver refuses: its validation always fails, so a decoded one never reaches
   * prepare, and it has no sharing setting.
   */
  sealed interface Unsupported extends SharingConfig
      permits Vfio, LocalIpc, ComputeDomainChannel, ComputeDomainDaemon {
    @Override
    default Optional<SharingSetting> sharingSetting() {
      throw new IllegalStateException(getClass().getSimpleName() + " is refused when decoded");
    }
  }

  private static List<ConfigProblem> refused(String kind, String why) {
    return List.of(ConfigProblem.of("kind", "\"" + kind + "\" of "
        + GpuConfigs.NVIDIA_API_VERSION + " is not supported by this driver: " + why));
  }

  /** VFIO passthrough. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Vfio() implements DeviceConfig<Vfio>, Unsupported {
    @Override
    public List<ConfigProblem> validate() {
      return refused("VfioDeviceConfig", "it has no VFIO passthrough devices");
    }
  }

  /** NVIDIA's local IPC configuration. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record LocalIpc() implements DeviceConfig<LocalIpc>, Unsupported {
    @Override
    public List<ConfigProblem> validate() {
      return refused("LocalIPCConfig", "it configures GPUs with GpuConfig and MigDeviceConfig"
          + " only");
    }
  }

  /** A channel of NVIDIA's compute domains (IMEX). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record ComputeDomainChannel()
      implements
        DeviceConfig<ComputeDomainChannel>,
        Unsupported {
    @Override
    public List<ConfigProblem> validate() {
      return refused("ComputeDomainChannelConfig", "compute domains belong to NVIDIA's"
          + " compute-domain.nvidia.com driver");
    }
  }

  /** A daemon of NVIDIA's compute domains (IMEX). */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record ComputeDomainDaemon()
      implements
        DeviceConfig<ComputeDomainDaemon>,
        Unsupported {
    @Override
    public List<ConfigProblem> validate() {
      return refused("ComputeDomainDaemonConfig", "compute domains belong to NVIDIA's"
          + " compute-domain.nvidia.com driver");
    }
  }
}
