package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.core.logging.LogValues;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.examples.gpu.sharing.SharingSetting.TimeSliceInterval;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The {@code sharing} part of NVIDIA's configurations ({@value GpuConfigs#NVIDIA_API_VERSION}),
 * with NVIDIA's field names, and how it maps onto the driver's {@link SharingSetting}: the
 * compatibility mapping of {@link NvidiaGpuConfig} and {@link NvidiaMigDeviceConfig}.
 *
 * <p>Where NVIDIA's rules differ from those of {@link Sharing}, NVIDIA's apply: a thread
 * percentage may be 0; a memory limit may be written as a JSON number as well as a quantity
 * string; strategy {@code Fabric} is refused as not supported. Checks NVIDIA makes only when it
 * applies a configuration (a strategy's settings under the other strategy, limits below 1 MiB,
 * the form of per-device keys) are made here when the configuration is decoded, so the webhook
 * refuses what the plugin would. Whether a per-device key names a device of the group is known
 * only at prepare ({@link PinnedMemoryLimits#perDevice}).
 */
public final class NvidiaSharing {

  private static final List<String> STRATEGIES = List.of("TimeSlicing", "MPS");

  private NvidiaSharing() {}

  /**
   * {@code sharing} of a {@code GpuConfig}.
   *
   * @param strategy {@code TimeSlicing} or {@code MPS}; required
   * @param timeSlicingConfig the settings of TimeSlicing; left out means interval Default
   * @param mpsConfig the settings of MPS; left out means no limits
   */
  public record GpuSharing(String strategy, Sharing.TimeSlicingConfig timeSlicingConfig,
      MpsConfig mpsConfig) {}

  /**
   * {@code sharing} of a {@code MigDeviceConfig}: no {@code timeSlicingConfig}, the time slice
   * being a setting of the whole GPU.
   *
   * @param strategy {@code TimeSlicing} (which changes nothing on a MIG device) or {@code MPS};
   *     required
   * @param mpsConfig the settings of MPS; left out means no limits
   */
  public record MigDeviceSharing(String strategy, MpsConfig mpsConfig) {}

  /**
   * NVIDIA's {@code mpsConfig}.
   *
   * @param defaultActiveThreadPercentage the share of threads each client may use, 0 to 100; null
   *     for the daemon's default
   * @param defaultPinnedDeviceMemoryLimit the memory each client may pin on every device of the
   *     group: a quantity string such as {@code 10Gi} or a JSON number of bytes, rounded down to
   *     whole MiB, at least 1 MiB; null for no limit
   * @param defaultPerDevicePinnedMemoryLimit limits for single devices, over the default, keyed by
   *     a device UUID or the decimal index of a device in the group's UUIDs sorted; null for none
   * @param multiUser whether the MPS daemon serves clients of different Linux users; null for
   *     false
   */
  public record MpsConfig(Integer defaultActiveThreadPercentage,
      Object defaultPinnedDeviceMemoryLimit, Map<String, Object> defaultPerDevicePinnedMemoryLimit,
      Boolean multiUser) {}

  /** {@code sharing} of a GpuConfig with the implied settings filled in. */
  static GpuSharing normalized(GpuSharing sharing) {
    Sharing.TimeSlicingConfig timeSlicing = sharing.timeSlicingConfig();
    MpsConfig mps = sharing.mpsConfig();
    if ("TimeSlicing".equals(sharing.strategy())
        && (timeSlicing == null || timeSlicing.interval() == null)) {
      timeSlicing = new Sharing.TimeSlicingConfig(TimeSliceInterval.Default);
    }
    if ("MPS".equals(sharing.strategy()) && mps == null) {
      mps = new MpsConfig(null, null, null, null);
    }
    return new GpuSharing(sharing.strategy(), timeSlicing, mps);
  }

  /** {@code sharing} of a MigDeviceConfig with the implied settings filled in. */
  static MigDeviceSharing normalized(MigDeviceSharing sharing) {
    return "MPS".equals(sharing.strategy()) && sharing.mpsConfig() == null
        ? new MigDeviceSharing(sharing.strategy(), new MpsConfig(null, null, null, null))
        : sharing;
  }

  /**
   * Checks a normalized {@code sharing}.
   *
   * @param path where it is
   * @param strategy the strategy as written
   * @param timeSlicing whether {@code timeSlicingConfig} is given
   * @param mps the MPS settings, if given
   * @return every problem
   */
  static List<ConfigProblem> validate(String path, String strategy, boolean timeSlicing,
      MpsConfig mps) {
    List<ConfigProblem> problems = new ArrayList<>();
    if (strategy == null || strategy.isEmpty()) {
      problems.add(ConfigProblem.of(path + ".strategy", "required, one of " + STRATEGIES));
      return problems;
    }
    if (strategy.equals("Fabric")) {
      problems.add(ConfigProblem.of(path + ".strategy", "\"Fabric\" is not supported by this"
          + " driver, want one of " + STRATEGIES));
      return problems;
    }
    if (!STRATEGIES.contains(strategy)) {
      problems.add(ConfigProblem.of(path + ".strategy", "unknown GPU sharing strategy "
          + LogValues.quote(strategy, 64) + ", want one of " + STRATEGIES));
      return problems;
    }
    Sharing.otherSettings(path, strategy, timeSlicing, mps != null, problems);
    if (strategy.equals("MPS")) {
      validate(path + ".mpsConfig", mps, problems);
    }
    return problems;
  }

  private static void validate(String path, MpsConfig mps, List<ConfigProblem> problems) {
    Integer percentage = mps.defaultActiveThreadPercentage();
    if (percentage != null && (percentage < 0 || percentage > 100)) {
      problems.add(ConfigProblem.of(path + ".defaultActiveThreadPercentage",
          "must be from 0 to 100, got " + percentage));
    }
    if (mps.defaultPinnedDeviceMemoryLimit() != null) {
      String field = path + ".defaultPinnedDeviceMemoryLimit";
      String text = quantity(field, mps.defaultPinnedDeviceMemoryLimit(), problems);
      if (text != null) {
        PinnedMemoryLimits.check(field, text, problems);
      }
    }
    Map<String, Object> limits = mps.defaultPerDevicePinnedMemoryLimit();
    if (limits != null) {
      String field = path + ".defaultPerDevicePinnedMemoryLimit";
      if (limits.size() > PinnedMemoryLimits.MAX_DEVICE_LIMITS) {
        problems.add(ConfigProblem.of(field, "at most " + PinnedMemoryLimits.MAX_DEVICE_LIMITS
            + " entries, got " + limits.size()));
        return;
      }
      Map<String, String> texts = new LinkedHashMap<>();
      limits.forEach((key, value) -> {
        String text = quantity(PinnedMemoryLimits.isDeviceKey(key) ? field + "." + key : field,
            value, problems);
        if (text != null) {
          texts.put(key, text);
        }
      });
      PinnedMemoryLimits.checkAll(field, texts, problems);
    }
  }

  /**
   * The text of a quantity written as a string or a JSON number, as Kubernetes reads both; null,
   * with a problem, for anything else.
   */
  private static String quantity(String path, Object value, List<ConfigProblem> problems) {
    String text = text(value);
    if (text == null) {
      problems.add(ConfigProblem.of(path, "want a quantity such as 10Gi or a number of bytes,"
          + " got " + (value instanceof Map ? "an object" : value instanceof List ? "a list"
              : value instanceof Boolean ? "a boolean" : "a number out of range")));
    }
    return text;
  }

  private static String text(Object value) {
    if (value instanceof String text) {
      return text;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof BigInteger) {
      return value.toString();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      return Double.isFinite(number) ? BigDecimal.valueOf(number).toPlainString() : null;
    }
    return null;
  }

  /**
   * The setting of a normalized, valid {@code sharing}.
   *
   * @param strategy {@code TimeSlicing} or {@code MPS}
   * @param timeSlicing the settings of TimeSlicing; null for a MIG device (interval Default)
   * @param mps the settings of MPS
   * @return the setting
   */
  static SharingSetting setting(String strategy, Sharing.TimeSlicingConfig timeSlicing,
      MpsConfig mps) {
    if (strategy.equals("TimeSlicing")) {
      return new SharingSetting.TimeSlicing(timeSlicing == null ? TimeSliceInterval.Default
          : timeSlicing.interval());
    }
    Map<String, String> perDevice = new LinkedHashMap<>();
    if (mps.defaultPerDevicePinnedMemoryLimit() != null) {
      mps.defaultPerDevicePinnedMemoryLimit().forEach((key, value) -> perDevice.put(key,
          text(value)));
    }
    return new SharingSetting.Mps(mps.defaultActiveThreadPercentage() == null
        ? OptionalInt.empty() : OptionalInt.of(mps.defaultActiveThreadPercentage()),
        mps.defaultPinnedDeviceMemoryLimit() == null ? OptionalLong.empty()
            : PinnedMemoryLimits.bytes(text(mps.defaultPinnedDeviceMemoryLimit())),
        PinnedMemoryLimits.bytesByKey(perDevice), Boolean.TRUE.equals(mps.multiUser()));
  }
}
