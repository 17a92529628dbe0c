package io.github.dra4j.testing.readme;

import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import java.util.List;

/** The README's configuration type. */
// README:begin config
public record GpuConfig(Sharing sharing, Integer partitions) implements DeviceConfig<GpuConfig> {
  public enum Sharing {
    TimeSlicing, SpacePartitioning
  }

  /** The configuration types of the driver: one scheme for the kubelet plugin and the webhook. */
  public static final ConfigScheme<GpuConfig> SCHEME = ConfigScheme.builder(GpuConfig.class)
      .register("gpu.example.com/v1alpha1", "GpuConfig", GpuConfig.class)
      .build();

  @Override
  public GpuConfig normalized() { // the defaults a left-out field implies
    Sharing s = sharing == null ? Sharing.TimeSlicing : sharing;
    Integer p = partitions == null && s == Sharing.SpacePartitioning ? Integer.valueOf(1)
        : partitions;
    return new GpuConfig(s, p);
  }

  @Override
  public List<ConfigProblem> validate() { // runs on the normalized value, everywhere
    if (sharing == Sharing.TimeSlicing && partitions != null) {
      return List.of(ConfigProblem.of("partitions", "only with sharing SpacePartitioning"));
    }
    if (partitions != null && partitions < 1) {
      return List.of(ConfigProblem.of("partitions", "must be at least 1, got " + partitions));
    }
    return List.of();
  }
}
// README:end
