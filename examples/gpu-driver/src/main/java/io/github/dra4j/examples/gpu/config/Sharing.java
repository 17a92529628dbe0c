package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.core.logging.LogValues;
import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.examples.gpu.sharing.SharingSetting.TimeSliceInterval;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
   * The settings of MPS.
   *
   * @param defaultActiveThreadPercentage the share of the GPU's threads each client may use, 1 to
   *     100; null for no limit
   * @param defaultPinnedDeviceMemoryLimit the device memory each client may pin, as a Kubernetes
   *     quantity such as {@code 10Gi}; null for no limit
   */
  public record MpsConfig(Integer defaultActiveThreadPercentage,
      String defaultPinnedDeviceMemoryLimit) {}

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
              ? TimeSliceInterval.Default : timeSlicingConfig.interval()), mpsConfig);
      case MPS -> new Sharing(strategy, timeSlicingConfig,
          mpsConfig == null ? new MpsConfig(null, null) : mpsConfig);
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
    otherSettings(path, problems);
    if (strategy == Strategy.MPS) {
      Integer percentage = mpsConfig.defaultActiveThreadPercentage();
      if (percentage != null && (percentage < 1 || percentage > 100)) {
        problems.add(ConfigProblem.of(path + ".mpsConfig.defaultActiveThreadPercentage",
            "must be from 1 to 100, got " + percentage));
      }
      String limit = mpsConfig.defaultPinnedDeviceMemoryLimit();
      if (limit != null && pinnedLimit(limit).isEmpty()) {
        // The value is quoted escaped and cut short: it is the client's, of any length.
        problems.add(ConfigProblem.of(path + ".mpsConfig.defaultPinnedDeviceMemoryLimit",
            "want a positive quantity of bytes such as 10Gi, got " + LogValues.quote(limit, 64)
                + quantityError(limit)));
      }
    }
    return problems;
  }

  private void otherSettings(String path, List<ConfigProblem> problems) {
    if (strategy != Strategy.TimeSlicing && timeSlicingConfig != null) {
      problems.add(ConfigProblem.of(path + ".timeSlicingConfig",
          "only with strategy TimeSlicing, not " + strategy));
    }
    if (strategy != Strategy.MPS && mpsConfig != null) {
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
              : OptionalLong.of(pinnedLimit(mpsConfig.defaultPinnedDeviceMemoryLimit())
                  .orElseThrow()), Map.of(), false);
    };
  }

  /** Why a text is no quantity at all, such as too many digits; empty if it is one. */
  private static String quantityError(String text) {
    try {
      QuantityValue.parse(text);
      return "";
    } catch (IllegalArgumentException e) {
      return ": " + e.getMessage();
    }
  }

  /** A positive whole number of bytes, or empty. */
  private static Optional<Long> pinnedLimit(String quantity) {
    return QuantityValue.tryParse(quantity)
        .filter(q -> q.signum() > 0)
        .flatMap(q -> {
          OptionalLong bytes = q.asLong();
          return bytes.isPresent() ? Optional.of(bytes.getAsLong()) : Optional.empty();
        });
  }
}
