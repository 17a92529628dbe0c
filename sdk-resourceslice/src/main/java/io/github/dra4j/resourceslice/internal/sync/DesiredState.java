package io.github.dra4j.resourceslice.internal.sync;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.resourceslice.Slice;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the controller should publish: a deep copy of the driver's resources, with
 * every taint {@code timeAdded} rounded to the nearest second and each pool checked once. A new
 * state replaces the old one as a whole; the pool map never changes after creation.
 *
 * @param pools pool name to desired pool, unmodifiable
 */
public record DesiredState(Map<String, DesiredPool> pools) {

  /** Checks one pool before it is published. */
  @FunctionalInterface
  public interface PoolCheck {
    /**
     * Checks a pool.
     *
     * @param poolName the pool name
     * @param pool the pool as the controller will publish it
     * @return the violations in check order; empty if the pool may be published
     */
    List<String> violations(String poolName, Pool pool);
  }

  /** The state of a controller that publishes nothing. */
  public static final DesiredState EMPTY = new DesiredState(Map.of());

  /**
   * Copies the map into an unmodifiable one, keeping its order.
   *
   * @param pools pool name to desired pool, in the driver's order; not null
   * @throws NullPointerException if {@code pools} is null
   */
  public DesiredState {
    pools = Collections.unmodifiableMap(new LinkedHashMap<>(pools));
  }

  /**
   * Builds the desired state from the driver's resources.
   *
   * @param resources the driver's resources (null means none)
   * @param serialization used for deep copies
   * @param check checks each pool, given the copy (taint times rounded) that will be published
   * @return the new state; the input is not referenced afterwards
   */
  public static DesiredState copyOf(
      DriverResources resources, KubernetesSerialization serialization, PoolCheck check) {
    if (resources == null) {
      return EMPTY;
    }
    Map<String, DesiredPool> pools = new LinkedHashMap<>();
    resources.pools().forEach((name, pool) -> pools.put(name, copyOf(name, pool, serialization,
        check)));
    return new DesiredState(pools);
  }

  private static DesiredPool copyOf(String name, Pool pool, KubernetesSerialization serialization,
      PoolCheck check) {
    List<DesiredSlice> slices = new ArrayList<>(pool.slices().size());
    for (Slice slice : pool.slices()) {
      List<Device> devices = new ArrayList<>(slice.devices().size());
      for (Device device : slice.devices()) {
        Device copy = serialization.clone(device);
        roundTaintTimes(copy);
        devices.add(copy);
      }
      List<CounterSet> counters = new ArrayList<>(slice.sharedCounters().size());
      slice.sharedCounters().forEach(set -> counters.add(serialization.clone(set)));
      slices.add(new DesiredSlice(devices, counters, slice.perDeviceNodeSelection()));
    }
    NodeSelector selector = pool.nodeSelector() == null ? null
        : serialization.clone(pool.nodeSelector());
    Pool copy = new Pool(selector, pool.allNodes(), pool.generation(),
        slices.stream().map(DesiredSlice::toSlice).toList());
    return new DesiredPool(name, selector, pool.allNodes(), pool.generation(), slices,
        check.violations(name, copy));
  }

  private static void roundTaintTimes(Device device) {
    if (device.getTaints() == null) {
      return;
    }
    for (DeviceTaint taint : device.getTaints()) {
      taint.setTimeAdded(roundToSecond(taint.getTimeAdded()));
    }
  }

  /**
   * Rounds an RFC 3339 time to the nearest second (half up), as the API server stores it.
   *
   * @param time the time, or null
   * @return the rounded time in UTC ({@code 2026-01-01T10:00:00Z}); null or unparseable input is
   *     returned unchanged (validation reports it)
   */
  public static String roundToSecond(String time) {
    if (time == null) {
      return null;
    }
    try {
      Instant rounded = Instant.parse(time).plusMillis(500).truncatedTo(ChronoUnit.SECONDS);
      return DateTimeFormatter.ISO_INSTANT.format(rounded);
    } catch (DateTimeParseException e) {
      return time;
    }
  }
}
