package io.github.dra4j.kubeletplugin.internal.health;

import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.HealthState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The gauge {@value MetricNames#DEVICE_HEALTH} of every device the driver reports, as a state
 * set: per device one series per {@link HealthState}, 1 for its current state. A device that is
 * no longer reported has its series removed, so the series are bounded by the reported devices.
 *
 * <p>Owned by one plugin; guarded by its monitor. {@link #update} takes the board's current
 * snapshot, so updates from several reporting threads end with the newest picture.
 */
public final class HealthGauges implements AutoCloseable {

  private final MeterRegistry registry;
  private final String driverName;
  private final Map<List<String>, Series> devices = new HashMap<>();
  private boolean closed;

  /**
   * Registers nothing yet.
   *
   * @param registry where the gauges go (borrowed)
   * @param driverName the {@value MetricNames#DRIVER_NAME} tag
   */
  public HealthGauges(MeterRegistry registry, String driverName) {
    this.registry = registry;
    this.driverName = driverName;
  }

  /**
   * Gauges that follow a board's every change.
   *
   * @param board the devices' health
   * @param registry where the gauges go (borrowed)
   * @param driverName the {@value MetricNames#DRIVER_NAME} tag
   * @return the gauges, owned by the caller
   */
  public static HealthGauges following(DeviceHealthBoard board, MeterRegistry registry,
      String driverName) {
    HealthGauges gauges = new HealthGauges(registry, driverName);
    board.watchChanges(snapshot -> gauges.update(board.snapshot()));
    return gauges;
  }

  /**
   * Makes the gauges show a snapshot: new devices get series, gone ones lose theirs.
   *
   * @param snapshot every reported device
   */
  public synchronized void update(List<DeviceHealth> snapshot) {
    if (closed) {
      return;
    }
    Set<List<String>> seen = new HashSet<>();
    for (DeviceHealth device : snapshot) {
      List<String> key = List.of(device.poolName(), device.deviceName());
      seen.add(key);
      devices.computeIfAbsent(key, k -> register(device)).state().set(device.state());
    }
    devices.entrySet().removeIf(entry -> {
      if (seen.contains(entry.getKey())) {
        return false;
      }
      entry.getValue().meters().forEach(registry::remove);
      return true;
    });
  }

  private Series register(DeviceHealth device) {
    AtomicReference<HealthState> state = new AtomicReference<>(device.state());
    List<Meter> meters = new ArrayList<>();
    for (HealthState each : HealthState.values()) {
      meters.add(Gauge.builder(MetricNames.DEVICE_HEALTH, state, s -> s.get() == each ? 1 : 0)
          .description("Health of each device the driver reports: 1 for its current state")
          .tag(MetricNames.DRIVER_NAME, driverName)
          .tag(MetricNames.POOL, device.poolName())
          .tag(MetricNames.DEVICE, device.deviceName())
          .tag(MetricNames.STATE, each.name().toLowerCase(Locale.ROOT))
          .strongReference(true)
          .register(registry));
    }
    return new Series(state, List.copyOf(meters));
  }

  /** Removes every series. */
  @Override
  public synchronized void close() {
    closed = true;
    devices.values().forEach(series -> series.meters().forEach(registry::remove));
    devices.clear();
  }

  /** One device's state and its series. */
  private record Series(AtomicReference<HealthState> state, List<Meter> meters) {}
}
