package io.github.dra4j.testing.kubelet;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The health of one device as the fake kubelet last heard it on a plugin's health stream.
 *
 * @param driver the driver
 * @param poolName the device's pool
 * @param deviceName the device's name
 * @param state the health the kubelet shows: what the plugin reported, or {@link
 *     DeviceHealthStatus#UNKNOWN} once the device was not reported again within {@code timeout}
 * @param reportedState what the plugin last reported
 * @param lastUpdated when the plugin says it determined the state (whole seconds)
 * @param timeout after how long without a report the device counts as unknown: the plugin's
 *     per-device value if positive, else the kubelet's default
 * @param message the plugin's detail, at most 1024 characters (longer ones are cut to 1021 plus
 *     {@code ...})
 * @param receivedAt when the kubelet received the report
 */
public record ObservedDeviceHealth(
    String driver,
    String poolName,
    String deviceName,
    DeviceHealthStatus state,
    DeviceHealthStatus reportedState,
    Instant lastUpdated,
    Duration timeout,
    String message,
    Instant receivedAt) {

  /**
   * Rejects missing fields.
   *
   * @param driver the driver
   * @param poolName the device's pool
   * @param deviceName the device's name
   * @param state the health the kubelet shows
   * @param reportedState what the plugin last reported
   * @param lastUpdated when the plugin says it determined the state (whole seconds)
   * @param timeout after how long without a report the device counts as unknown
   * @param message the plugin's detail, at most 1024 characters
   * @param receivedAt when the kubelet received the report
   */
  public ObservedDeviceHealth {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(poolName, "poolName");
    Objects.requireNonNull(deviceName, "deviceName");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(reportedState, "reportedState");
    Objects.requireNonNull(lastUpdated, "lastUpdated");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(receivedAt, "receivedAt");
  }

  /**
   * This report as seen at a given time: unknown once it is older than its timeout.
   *
   * @param now the time to judge by
   * @return this, or a copy whose {@code state} is UNKNOWN
   */
  ObservedDeviceHealth at(Instant now) {
    boolean stale = receivedAt.plus(timeout).isBefore(now);
    DeviceHealthStatus shown = stale ? DeviceHealthStatus.UNKNOWN : reportedState;
    return shown == state ? this : new ObservedDeviceHealth(driver, poolName, deviceName, shown,
        reportedState, lastUpdated, timeout, message, receivedAt);
  }
}
