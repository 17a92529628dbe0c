package io.github.dra4j.examples.gpu.config;

import io.github.dra4j.core.logging.LogValues;
import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The pinned device memory limits of MPS, the same in both configuration APIs: how a quantity
 * becomes a limit, which keys may name a device, and how the keys are resolved against the
 * devices of a configuration group when the claim is prepared.
 *
 * <p>Limits are whole MiB, the unit the MPS control daemon takes: a quantity is rounded down to
 * whole MiB ({@code 1.5Gi} stays, {@code 1000000} becomes 0 MiB) and must come to at least 1 MiB.
 * A key of {@code defaultPerDevicePinnedMemoryLimit} is either a device's UUID ({@code GPU-...}
 * for a GPU, {@code MIG-...} for a MIG device) or a decimal index into the UUIDs of the group's
 * devices, sorted as strings; whether it names a device of the group can only be known at
 * prepare, when the devices are allocated ({@link #perDevice}).
 */
public final class PinnedMemoryLimits {

  /** The most entries {@code defaultPerDevicePinnedMemoryLimit} may have. */
  public static final int MAX_DEVICE_LIMITS = 128;

  private static final long MIB = 1L << 20;
  private static final BigDecimal LARGEST = BigDecimal.valueOf(Long.MAX_VALUE / MIB * MIB);
  private static final String HEX_UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
  private static final Pattern DEVICE_UUID = Pattern.compile(
      "(GPU|MIG)-" + HEX_UUID + "|MIG-GPU-" + HEX_UUID + "/[0-9]{1,3}/[0-9]{1,3}");
  private static final Pattern INDEX = Pattern.compile("[0-9]{1,4}");

  private PinnedMemoryLimits() {}

  /**
   * Whether a key of per-device limits has a form that can name a device.
   *
   * @param key the key
   * @return true for a GPU or MIG UUID, or 1 to 4 decimal digits
   */
  public static boolean isDeviceKey(String key) {
    return DEVICE_UUID.matcher(key).matches() || INDEX.matcher(key).matches();
  }

  /**
   * The limit a quantity gives, in bytes: whole MiB, at least 1 MiB.
   *
   * @param text a Kubernetes quantity such as {@code 10Gi}
   * @return the limit, or empty if the text is no quantity or the limit would be below 1 MiB
   */
  static OptionalLong bytes(String text) {
    return QuantityValue.tryParse(text).map(q -> {
      if (q.signum() <= 0 || tooLarge(q)) {
        return OptionalLong.empty();
      }
      long mib = q.toBigDecimal().setScale(0, RoundingMode.CEILING).longValueExact() / MIB;
      return mib == 0 ? OptionalLong.empty() : OptionalLong.of(mib * MIB);
    }).orElse(OptionalLong.empty());
  }

  /** Whether a quantity has more bytes than a long holds (compared without scaling it). */
  private static boolean tooLarge(QuantityValue quantity) {
    return quantity.toBigDecimal().compareTo(LARGEST) > 0;
  }

  /**
   * Checks one limit, adding a problem at {@code path} that quotes the value.
   *
   * @param path where the limit is
   * @param text the limit as written
   * @param problems where problems go
   */
  static void check(String path, String text, List<ConfigProblem> problems) {
    if (bytes(text).isPresent()) {
      return;
    }
    // The value is quoted escaped and cut short: it is the client's, of any length.
    String shown = LogValues.quote(text, 64);
    String why;
    try {
      QuantityValue value = QuantityValue.parse(text);
      why = value.signum() <= 0 ? ""
          : tooLarge(value) ? ": more than " + LARGEST + " bytes"
          : ": less than 1Mi, and limits are whole MiB, rounded down";
    } catch (IllegalArgumentException e) {
      why = ": " + e.getMessage();
    }
    problems.add(ConfigProblem.of(path, "want a positive quantity of bytes such as 10Gi, at"
        + " least 1Mi, got " + shown + why));
  }

  /**
   * Checks the keys and values of per-device limits.
   *
   * @param path where the map is, such as {@code
   *     sharing.mpsConfig.defaultPerDevicePinnedMemoryLimit}
   * @param limits the limits as written, by key
   * @param problems where problems go
   */
  static void checkAll(String path, Map<String, String> limits, List<ConfigProblem> problems) {
    if (limits.size() > MAX_DEVICE_LIMITS) {
      problems.add(ConfigProblem.of(path, "at most " + MAX_DEVICE_LIMITS + " entries, got "
          + limits.size()));
      return;
    }
    for (Map.Entry<String, String> limit : limits.entrySet()) {
      if (!isDeviceKey(limit.getKey())) {
        problems.add(ConfigProblem.of(path, "key " + LogValues.quote(limit.getKey(), 64)
            + " names no device: want a GPU or MIG device UUID (GPU-..., MIG-...) or the"
            + " decimal index of a device in the group's UUIDs sorted"));
      } else {
        check(path + "." + limit.getKey(), limit.getValue(), problems);
      }
    }
  }

  /**
   * The per-device limits of checked texts, in bytes.
   *
   * @param limits valid limits by key; null for none
   * @return the bytes by key
   */
  static Map<String, Long> bytesByKey(Map<String, String> limits) {
    Map<String, Long> bytes = new TreeMap<>();
    if (limits != null) {
      limits.forEach((key, text) -> bytes.put(key, bytes(text).orElseThrow()));
    }
    return bytes;
  }

  /**
   * The limit of each device of a group, for the MPS control daemon: {@code
   * pinnedMemoryLimitBytes} for every device, overridden by the entries of {@code
   * pinnedMemoryLimitsByDevice}, each key resolved to a UUID of the group.
   *
   * @param mps the setting
   * @param groupUuids the UUIDs of the group's devices (GPUs, or MIG devices)
   * @return bytes by UUID, sorted; empty without limits
   * @throws IllegalArgumentException naming the key, the group's UUIDs and the field, if a key
   *     names no device of the group or two keys name the same device: the claim then fails to
   *     prepare with that message
   */
  public static Map<String, Long> perDevice(SharingSetting.Mps mps, Collection<String> groupUuids) {
    List<String> sorted = new ArrayList<>(new TreeSet<>(groupUuids));
    Map<String, Long> limits = new TreeMap<>();
    mps.pinnedMemoryLimitBytes().ifPresent(bytes -> sorted.forEach(u -> limits.put(u, bytes)));
    Map<String, String> keyOf = new TreeMap<>();
    for (Map.Entry<String, Long> limit : mps.pinnedMemoryLimitsByDevice().entrySet()) {
      String key = limit.getKey();
      String uuid = resolve(key, sorted);
      String other = keyOf.putIfAbsent(uuid, key);
      if (other != null) {
        throw new IllegalArgumentException("mpsConfig.defaultPerDevicePinnedMemoryLimit: keys "
            + LogValues.quote(other, 64) + " and " + LogValues.quote(key, 64) + " both name"
            + " device " + uuid + "; give one limit per device");
      }
      limits.put(uuid, limit.getValue());
    }
    return limits;
  }

  private static String resolve(String key, List<String> sorted) {
    if (sorted.contains(key)) {
      return key;
    }
    if (INDEX.matcher(key).matches()) {
      int index = Integer.parseInt(key);
      if (index < sorted.size()) {
        return sorted.get(index);
      }
    }
    throw new IllegalArgumentException("mpsConfig.defaultPerDevicePinnedMemoryLimit: key "
        + LogValues.quote(key, 64) + " names no device of this configuration's group " + sorted
        + "; want one of their UUIDs or an index from 0 to " + (sorted.size() - 1));
  }
}
