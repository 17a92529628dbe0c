package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.examples.gpu.sharing.SharingSetting.TimeSliceInterval;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The {@code sharing} part of a GPU configuration: a strategy and the settings of that strategy
 * only.
 *
 * @param strategy the strategy; required
 * @param timeSlicingConfig the settings of TimeSlicing
 * @param mpsConfig the settings of MPS
 */
public record Sharing(Strategy strategy, TimeSlicingConfig timeSlicingConfig,
    MpsConfig mpsConfig) {

  /**
   * The settings of TimeSlicing.
   *
   * @param interval the time slice; null for Default
   */
  public record TimeSlicingConfig(TimeSliceInterval interval) {}

  /**
   * The settings of MPS. Limits are Kubernetes quantities, rounded down to whole MiB and at least
   * 1 MiB ({@link PinnedMemoryLimits}).
   *
   * @param defaultActiveThreadPercentage the share of the GPU's threads each client may use, 1 to
   *     100; null for no limit
   * @param defaultPinnedDeviceMemoryLimit the device memory each client may pin on every device of
   *     the group, such as {@code 10Gi}; null for no limit
   * @param defaultPerDevicePinnedMemoryLimit limits for single devices, over the default: the key
   *     is a device's UUID or the decimal index of a device in the group's UUIDs sorted; null for
   *     none
   * @param multiUser whether the MPS daemon serves clients of different Linux users (it then runs
   *     them all as root: only where isolation between users does not matter); null for false
   */
  public record MpsConfig(Integer defaultActiveThreadPercentage,
      String defaultPinnedDeviceMemoryLimit, Map<String, String> defaultPerDevicePinnedMemoryLimit,
      Boolean multiUser) {}

  /**
   * A strategy without settings, to be normalized.
   *
   * @param strategy the strategy
   * @return the sharing
   */
  public static Sharing of(Strategy strategy) {
    return new Sharing(strategy, null, null);
  }

  /**
   * This sharing with the chosen strategy's settings filled in: TimeSlicing gets interval
   * Default, MPS no limits. The other strategies' settings are
   * kept, so that {@link #validate} can refuse them.
   *
   * @return the normalized sharing
   */
  public Sharing normalized() {
    if (strategy == null) {
      return this;
    }
    return switch (strategy) {
      case TimeSlicing -> new Sharing(strategy, new TimeSlicingConfig(
          timeSlicingConfig == null || timeSlicingConfig.interval() == null
              ? TimeSliceInterval.Default : timeSlicingConfig.interval()),
          mpsConfig);
      case MPS -> new Sharing(strategy, timeSlicingConfig,
          mpsConfig == null ? new MpsConfig(null, null, null, null) : mpsConfig);
    };
  }

  /**
   * Checks a normalized sharing.
   *
   * @param path where the sharing is, for the problems' paths
   * @param allowed the strategies the configuration type allows
   * @return every problem
   */
  List<ConfigProblem> validate(String path, List<Strategy> allowed) {
    List<ConfigProblem> problems = new ArrayList<>();
    if (strategy == null) {
      problems.add(ConfigProblem.of(path + ".strategy", "required, one of " + allowed));
      return problems;
    }
    if (!allowed.contains(strategy)) {
      problems.add(ConfigProblem.of(path + ".strategy", "\"" + strategy + "\" is not supported"
          + " here, want one of " + allowed));
    }
    otherSettings(path, strategy, timeSlicingConfig != null, mpsConfig != null, problems);
    if (strategy == Strategy.MPS) {
      Integer percentage = mpsConfig.defaultActiveThreadPercentage();
      if (percentage != null && (percentage < 1 || percentage > 100)) {
        problems.add(ConfigProblem.of(path + ".mpsConfig.defaultActiveThreadPercentage",
            "must be from 1 to 100, got " + percentage));
      }
      if (mpsConfig.defaultPinnedDeviceMemoryLimit() != null) {
        PinnedMemoryLimits.check(path + ".mpsConfig.defaultPinnedDeviceMemoryLimit",
            mpsConfig.defaultPinnedDeviceMemoryLimit(), problems);
      }
      if (mpsConfig.defaultPerDevicePinnedMemoryLimit() != null) {
        PinnedMemoryLimits.checkAll(path + ".mpsConfig.defaultPerDevicePinnedMemoryLimit",
            mpsConfig.defaultPerDevicePinnedMemoryLimit(), problems);
      }
    }
    return problems;
  }

  /** Refuses the settings of a strategy other than the chosen one, in words both APIs share. */
  static void otherSettings(String path, Object strategy, boolean timeSlicing, boolean mps,
      List<ConfigProblem> problems) {
    if (!Strategy.TimeSlicing.name().equals(String.valueOf(strategy)) && timeSlicing) {
      problems.add(ConfigProblem.of(path + ".timeSlicingConfig",
          "only with strategy TimeSlicing, not " + strategy));
    }
    if (!Strategy.MPS.name().equals(String.valueOf(strategy)) && mps) {
      problems.add(ConfigProblem.of(path + ".mpsConfig", "only with strategy MPS, not "
          + strategy));
    }
  }

  /**
   * The setting to apply on the node, from a normalized, valid sharing.
   *
   * @return the setting
   */
  public SharingSetting setting() {
    return switch (strategy) {
      case TimeSlicing -> new SharingSetting.TimeSlicing(timeSlicingConfig == null
          || timeSlicingConfig.interval() == null ? TimeSliceInterval.Default
              : timeSlicingConfig.interval());
      case MPS -> new SharingSetting.Mps(mpsConfig.defaultActiveThreadPercentage() == null
          ? OptionalInt.empty() : OptionalInt.of(mpsConfig.defaultActiveThreadPercentage()),
          mpsConfig.defaultPinnedDeviceMemoryLimit() == null ? OptionalLong.empty()
              : PinnedMemoryLimits.bytes(mpsConfig.defaultPinnedDeviceMemoryLimit()),
          PinnedMemoryLimits.bytesByKey(mpsConfig.defaultPerDevicePinnedMemoryLimit()),
          Boolean.TRUE.equals(mpsConfig.multiUser()));
    };
  }
}
