package io.github.dra4j.webhook;

import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * A GPU sharing configuration shaped like the SIG example driver's: a strategy and the settings
 * of that strategy only. Normalizing fills the defaults the plugin would act on.
 */
record SharingConfig(Sharing sharing) implements DeviceConfig<SharingConfig> {

  static final String DRIVER = "gpu.example.com";
  static final String API_VERSION = "gpu.example.com/v1alpha1";

  enum Strategy {
    TimeSlicing, SpacePartitioning
  }

  enum Interval {
    Default, Short, Medium, Long
  }

  record TimeSlicing(Interval interval) {}

  record SpacePartitioning(Integer partitionCount) {}

  record Sharing(Strategy strategy, TimeSlicing timeSlicingConfig,
      SpacePartitioning spacePartitioningConfig) {}

  /** A type whose check has a bug, to show a driver's exception does not crash the webhook. */
  record BrokenConfig(String value) implements DeviceConfig<BrokenConfig> {
    @Override
    public List<ConfigProblem> validate() {
      return List.of(ConfigProblem.of("value", value.trim()));
    }
  }

  /** A type whose check takes a while, to have requests in flight. */
  record SlowConfig(int millis) implements DeviceConfig<SlowConfig> {
    @Override
    public List<ConfigProblem> validate() {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return List.of();
    }
  }

  /** A memory limit given as a quantity, read as the GPU driver reads its MPS memory limit. */
  record LimitConfig(String memory) implements DeviceConfig<LimitConfig> {
    @Override
    public List<ConfigProblem> validate() {
      try {
        QuantityValue.parse(memory);
        return List.of();
      } catch (IllegalArgumentException e) {
        String shown = memory.length() <= 40 ? memory : memory.substring(0, 40) + "...";
        return List.of(ConfigProblem.of("memory", "want a quantity such as 10Gi, got \""
            + shown + "\": " + e.getMessage()));
      }
    }
  }

  /** A type whose check throws an {@link Error}, as running out of memory in it would. */
  record FatalConfig(String value) implements DeviceConfig<FatalConfig> {
    @Override
    public List<ConfigProblem> validate() {
      throw new OutOfMemoryError("simulated by the test: " + value);
    }
  }

  static ConfigScheme<Object> scheme() {
    return ConfigScheme.builder()
        .register(API_VERSION, "GpuConfig", SharingConfig.class)
        .register(API_VERSION, "BrokenConfig", BrokenConfig.class)
        .register(API_VERSION, "SlowConfig", SlowConfig.class)
        .build();
  }

  /** {@link #scheme()} and the types of the attack tests. */
  static ConfigScheme<Object> attackScheme() {
    return ConfigScheme.builder()
        .register(API_VERSION, "GpuConfig", SharingConfig.class)
        .register(API_VERSION, "LimitConfig", LimitConfig.class)
        .register(API_VERSION, "FatalConfig", FatalConfig.class)
        .build();
  }

  @Override
  public SharingConfig normalized() {
    Sharing s = sharing == null ? new Sharing(Strategy.TimeSlicing, null, null) : sharing;
    if (s.strategy() == Strategy.TimeSlicing && s.timeSlicingConfig() == null) {
      s = new Sharing(s.strategy(), new TimeSlicing(Interval.Default),
          s.spacePartitioningConfig());
    }
    if (s.strategy() == Strategy.SpacePartitioning && s.spacePartitioningConfig() == null) {
      s = new Sharing(s.strategy(), s.timeSlicingConfig(), new SpacePartitioning(1));
    }
    return new SharingConfig(s);
  }

  @Override
  public List<ConfigProblem> validate() {
    List<ConfigProblem> problems = new ArrayList<>();
    if (sharing.strategy() == null) {
      problems.add(ConfigProblem.of("sharing.strategy", "required"));
      return problems;
    }
    if (sharing.strategy() == Strategy.TimeSlicing && sharing.spacePartitioningConfig() != null) {
      problems.add(ConfigProblem.of("sharing.spacePartitioningConfig",
          "not allowed with strategy TimeSlicing"));
    }
    if (sharing.strategy() == Strategy.SpacePartitioning) {
      if (sharing.timeSlicingConfig() != null) {
        problems.add(ConfigProblem.of("sharing.timeSlicingConfig",
            "not allowed with strategy SpacePartitioning"));
      }
      Integer count = sharing.spacePartitioningConfig().partitionCount();
      if (count == null || count < 1) {
        problems.add(ConfigProblem.of("sharing.spacePartitioningConfig.partitionCount",
            "must be at least 1, got " + count));
      }
    }
    if (sharing.strategy() == Strategy.TimeSlicing
        && sharing.timeSlicingConfig().interval() == null) {
      problems.add(ConfigProblem.of("sharing.timeSlicingConfig.interval", "required"));
    }
    return problems;
  }
}
