package io.github.dra4j.examples.gpu.health;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.github.dra4j.examples.gpu.devices.DeviceCatalog;
import io.github.dra4j.examples.gpu.devices.GpuDevice;
import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.HealthState;
import io.github.dra4j.kubeletplugin.HealthTaints;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Turns a health source's conditions into the health the kubelet streams ({@code Unhealthy}
 * while a blocking condition lasts) and, as the plugin's {@link HealthTaints}, into device taints
 * in the ResourceSlice (key {@code <driver>/<condition key>}, effect {@code NoSchedule} for a
 * blocking condition, {@code None} otherwise): the SDK publishes the devices again with them
 * whenever the reported health changes. A condition applies to every device of its GPU. A taint
 * keeps the time it was first seen, so publishing again changes nothing while the conditions
 * stay; a condition that goes away takes its taint with it. Thread-safe (guarded by its monitor);
 * owned by the driver.
 */
public final class DeviceHealthTracker implements HealthTaints {

  private final String driverName;
  private final DeviceCatalog catalog;
  private final Clock clock;
  private final Map<GpuCondition, Instant> firstSeen = new HashMap<>();
  private List<GpuCondition> current = List.of();

  /**
   * Tracks the devices of a catalog.
   *
   * @param driverName the taints' key domain
   * @param catalog the devices
   * @param clock when conditions are first seen
   */
  public DeviceHealthTracker(String driverName, DeviceCatalog catalog, Clock clock) {
    this.driverName = Objects.requireNonNull(driverName, "driverName");
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Takes the complete list of current conditions.
   *
   * @param conditions from the health source
   * @return whether anything changed
   */
  public synchronized boolean update(List<GpuCondition> conditions) {
    List<GpuCondition> next = List.copyOf(conditions);
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    firstSeen.keySet().retainAll(next);
    next.forEach(condition -> firstSeen.putIfAbsent(condition, now));
    boolean changed = !next.equals(current);
    current = next;
    return changed;
  }

  /**
   * The taints of one device, from the conditions of its GPU; the plugin calls this for every
   * device the driver reports health for.
   *
   * @param driverName the plugin's driver name (the tracker's own is the same)
   * @param health the device's last reported health
   * @return its taints; empty for a device of a GPU without conditions, or not in the catalog
   */
  @Override
  public synchronized List<DeviceTaint> taints(String driverName, DeviceHealth health) {
    GpuDevice device = catalog.devices().get(health.deviceName());
    if (device == null || !health.poolName().equals(catalog.poolName())) {
      return List.of();
    }
    List<DeviceTaint> own = new ArrayList<>();
    for (GpuCondition condition : conditionsOf(device)) {
      DeviceTaintBuilder taint = new DeviceTaintBuilder()
          .withKey(this.driverName + "/" + condition.key())
          .withEffect(condition.blocking() ? "NoSchedule" : "None")
          .withTimeAdded(DateTimeFormatter.ISO_INSTANT.format(firstSeen.get(condition)));
      if (!condition.value().isEmpty()) {
        taint.withValue(condition.value());
      }
      own.add(taint.build());
    }
    return own;
  }

  /**
   * The health of every device, for the kubelet's health stream.
   *
   * @return one entry per device
   */
  public synchronized List<DeviceHealth> health() {
    Instant now = clock.instant();
    List<DeviceHealth> health = new ArrayList<>();
    for (GpuDevice device : catalog.devices().values()) {
      List<GpuCondition> blocking = conditionsOf(device).stream()
          .filter(GpuCondition::blocking).toList();
      health.add(new DeviceHealth(catalog.poolName(), device.name(),
          blocking.isEmpty() ? HealthState.HEALTHY : HealthState.UNHEALTHY, now, null,
          blocking.stream().map(c -> c.key() + (c.value().isEmpty() ? "" : "=" + c.value())
              + (c.message().isEmpty() ? "" : ": " + c.message()))
              .collect(Collectors.joining("; "))));
    }
    return health;
  }

  private List<GpuCondition> conditionsOf(GpuDevice device) {
    return current.stream().filter(c -> c.uuid().equals(device.gpu().uuid())).toList();
  }
}
