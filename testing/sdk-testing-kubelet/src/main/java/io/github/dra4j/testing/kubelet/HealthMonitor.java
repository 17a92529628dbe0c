package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubelet.wire.health.v1.DeviceHealth;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's device health cache: the latest report per (driver, pool, device), fed by the
 * health streams it opens, emptied for a driver whenever one of its streams ends.
 *
 * <p>Thread-safe; the cache is guarded by this object's monitor. Owns no threads: streams run on
 * gRPC callback threads and retry on the borrowed timer executor.
 */
final class HealthMonitor {

  private static final Logger LOG = LoggerFactory.getLogger(HealthMonitor.class);

  /** The kubelet keeps at most this many characters of a device's message. */
  static final int MAX_MESSAGE_CHARS = 1024;

  private final boolean enabled;
  private final Duration retryPeriod;
  private final Duration defaultTimeout;
  private final ScheduledExecutorService timers;
  private final CallLog log;
  private final Clock clock;
  private final Map<String, Map<String, ObservedDeviceHealth>> byDriver = new HashMap<>();

  HealthMonitor(boolean enabled, Duration retryPeriod, Duration defaultTimeout,
      ScheduledExecutorService timers, CallLog log, Clock clock) {
    this.enabled = enabled;
    this.retryPeriod = retryPeriod;
    this.defaultTimeout = defaultTimeout;
    this.timers = timers;
    this.log = log;
    this.clock = clock;
  }

  /**
   * Opens the health stream of a newly registered instance, if streams are on and it advertises a
   * health service.
   *
   * @param instance the instance
   * @return the running stream, or null
   */
  HealthStream open(PluginInstance instance) {
    if (!enabled || instance.healthService() == null) {
      return null;
    }
    HealthStream stream = new HealthStream(instance, this, log, timers, retryPeriod);
    stream.start();
    return stream;
  }

  /**
   * Stores the devices of one stream message.
   *
   * @param driver the driver whose stream it came from
   * @param response the message
   */
  synchronized void update(String driver, NodeWatchResourcesResponse response) {
    Instant now = clock.instant();
    Map<String, ObservedDeviceHealth> devices = byDriver.computeIfAbsent(driver,
        d -> new HashMap<>());
    for (DeviceHealth device : response.getDevicesList()) {
      String pool = device.getDevice().getPoolName();
      String name = device.getDevice().getDeviceName();
      devices.put(pool + "/" + name, new ObservedDeviceHealth(driver, pool, name,
          state(device), state(device), Instant.ofEpochSecond(device.getLastUpdatedTime()),
          timeout(driver, device), message(device.getMessage()), now));
    }
  }

  private static DeviceHealthStatus state(DeviceHealth device) {
    return switch (device.getHealth()) {
      case HEALTHY -> DeviceHealthStatus.HEALTHY;
      case UNHEALTHY -> DeviceHealthStatus.UNHEALTHY;
      default -> DeviceHealthStatus.UNKNOWN;
    };
  }

  private Duration timeout(String driver, DeviceHealth device) {
    long seconds = device.getHealthCheckTimeoutSeconds();
    if (seconds < 0) {
      LOG.warn("DRA driver {} sent negative health_check_timeout_seconds {} for device {}/{};"
          + " using the default", driver, seconds, device.getDevice().getPoolName(),
          device.getDevice().getDeviceName());
    }
    return seconds > 0 ? Duration.ofSeconds(seconds) : defaultTimeout;
  }

  private static String message(String message) {
    return message.length() > MAX_MESSAGE_CHARS
        ? message.substring(0, MAX_MESSAGE_CHARS - 3) + "..."
        : message;
  }

  /**
   * Forgets the health of a driver's devices (one of its streams ended).
   *
   * @param driver the driver
   */
  synchronized void clear(String driver) {
    byDriver.remove(driver);
  }

  /** Forgets everything (kubelet restart). */
  synchronized void clearAll() {
    byDriver.clear();
  }

  /**
   * The health of a driver's devices as the kubelet shows it now.
   *
   * @param driver the driver
   * @return reports ordered by pool and device name; stale ones say UNKNOWN
   */
  synchronized List<ObservedDeviceHealth> snapshot(String driver) {
    Instant now = clock.instant();
    return byDriver.getOrDefault(driver, Map.of()).values().stream()
        .map(h -> h.at(now))
        .sorted(Comparator.comparing(ObservedDeviceHealth::poolName)
            .thenComparing(ObservedDeviceHealth::deviceName))
        .toList();
  }
}
