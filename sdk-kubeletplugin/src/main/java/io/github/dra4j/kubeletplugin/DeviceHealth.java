package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.stability.KubernetesAlpha;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The health of one device, as a driver reports it.
 *
 * @param poolName the device's pool
 * @param deviceName the device's name in the pool
 * @param state its health
 * @param checkedAt when the driver last determined the state
 * @param checkTimeout after how long without a report the kubelet should treat the device as
 *     unknown; null or zero means the kubelet's default (30 s)
 * @param message optional detail for people (null or empty for none); the kubelet keeps at most
 *     1024 characters
 */
@KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
public record DeviceHealth(
    String poolName,
    String deviceName,
    HealthState state,
    Instant checkedAt,
    Duration checkTimeout,
    String message) {

  /**
   * Rejects missing identity, state or time; negative timeouts are refused.
   *
   * @param poolName the pool of the device, as published in its ResourceSlice; not null or empty
   * @param deviceName the device's name within that pool; not null or empty
   * @param state the health the driver determined; not null
   * @param checkedAt when the driver determined it; not null. The kubelet receives whole seconds
   *     since the epoch.
   * @param checkTimeout how long the kubelet trusts this report before treating the device as
   *     unknown; null or zero for the kubelet's default (30 s), sent in whole seconds (fractions
   *     are dropped); must not be negative
   * @param message detail for people; null becomes empty. Messages past 1024 characters are cut
   *     and end in {@code ...} when sent.
   * @throws IllegalArgumentException if a name is null or empty, or the timeout is negative
   * @throws NullPointerException if {@code state} or {@code checkedAt} is null
   */
  public DeviceHealth {
    requireNonEmpty(poolName, "poolName");
    requireNonEmpty(deviceName, "deviceName");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(checkedAt, "checkedAt");
    if (checkTimeout != null && checkTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "checkTimeout of device " + poolName + "/" + deviceName + " is negative: "
              + checkTimeout);
    }
    message = message == null ? "" : message;
  }

  /**
   * A device that was just found healthy.
   *
   * @param poolName the pool
   * @param deviceName the device
   * @return the report, checked now
   */
  public static DeviceHealth healthy(String poolName, String deviceName) {
    return new DeviceHealth(poolName, deviceName, HealthState.HEALTHY, Instant.now(), null, "");
  }

  /**
   * A device that was just found unhealthy.
   *
   * @param poolName the pool
   * @param deviceName the device
   * @param message why
   * @return the report, checked now
   */
  public static DeviceHealth unhealthy(String poolName, String deviceName, String message) {
    return new DeviceHealth(
        poolName, deviceName, HealthState.UNHEALTHY, Instant.now(), null, message);
  }

  private static void requireNonEmpty(String value, String field) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(field + " must not be empty, got \"" + value + "\"");
    }
  }
}
