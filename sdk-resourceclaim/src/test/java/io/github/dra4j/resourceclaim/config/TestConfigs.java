package io.github.dra4j.resourceclaim.config;

import io.github.dra4j.resourceclaim.AllocatedDevice;
import java.util.ArrayList;
import java.util.List;

/** Configuration types of an example driver with GPUs and NICs. */
final class TestConfigs {

  static final String API = "gpu.resource.example.com/v1alpha1";

  private TestConfigs() {}

  static ConfigScheme<Object> scheme() {
    return ConfigScheme.builder()
        .register(API, "GpuConfig", GpuConfig.class)
        .register(API, "NicConfig", NicConfig.class)
        .register(API, "PlainConfig", PlainConfig.class)
        .build();
  }

  /** What the GPU and NIC configurations have in common, for a typed scheme. */
  sealed interface DeviceSetting permits GpuConfig, NicConfig {}

  /** GPU and NIC configurations under their common type: decoded without a cast. */
  static ConfigScheme<DeviceSetting> typedScheme() {
    return ConfigScheme.builder(DeviceSetting.class)
        .register(API, "GpuConfig", GpuConfig.class)
        .register(API, "NicConfig", NicConfig.class)
        .build();
  }

  enum Strategy {
    TimeSlicing, Mps
  }

  record Interval(int seconds) {}

  record Sharing(Strategy strategy, Interval interval) {}

  /** Defaults: one replica, time slicing; MPS needs at least two replicas. */
  record GpuConfig(Sharing sharing, Integer replicas, List<String> tags)
      implements
        DeviceConfig<GpuConfig>,
        DeviceSetting {

    static GpuConfig of(Strategy strategy, int replicas) {
      return new GpuConfig(new Sharing(strategy, null), replicas, null);
    }

    @Override
    public GpuConfig normalized() {
      Sharing s = sharing == null ? new Sharing(Strategy.TimeSlicing, null) : sharing;
      if (s.strategy() == null) {
        s = new Sharing(Strategy.TimeSlicing, s.interval());
      }
      return new GpuConfig(s, replicas == null ? 1 : replicas, tags == null ? List.of() : tags);
    }

    @Override
    public List<ConfigProblem> validate() {
      List<ConfigProblem> problems = new ArrayList<>();
      if (replicas < 1) {
        problems.add(ConfigProblem.of("replicas", "must be at least 1, got " + replicas));
      }
      if (sharing.strategy() == Strategy.Mps && replicas < 2) {
        problems.add(ConfigProblem.of("replicas", "MPS needs at least 2 replicas, got "
            + replicas));
      }
      if (sharing.interval() != null && sharing.interval().seconds() <= 0) {
        problems.add(ConfigProblem.of("sharing.interval.seconds", "must be positive, got "
            + sharing.interval().seconds()));
      }
      return problems;
    }

    @Override
    public boolean appliesTo(AllocatedDevice device) {
      return device.device().startsWith("gpu");
    }
  }

  record NicConfig(String mtu) implements DeviceConfig<NicConfig>, DeviceSetting {
    @Override
    public boolean appliesTo(AllocatedDevice device) {
      return device.device().startsWith("nic");
    }
  }

  /** A type without hooks: used as decoded, applies to every device. */
  record PlainConfig(String name) {}
}
