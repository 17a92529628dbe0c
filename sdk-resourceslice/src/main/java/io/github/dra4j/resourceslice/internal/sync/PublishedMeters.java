package io.github.dra4j.resourceslice.internal.sync;

import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.resourceslice.PoolStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * The gauges of what each pool has published ({@value MetricNames#SLICE_PUBLISHED_DEVICES},
 * {@value MetricNames#SLICE_PUBLISHED_SLICES}, {@value MetricNames#SLICE_PUBLISH_FAILING}, tags
 * {@code driver_name} and {@code pool}), read from the last {@link PoolStatus} of each pool. A
 * pool gets its series at its first sync and loses them once it is neither desired nor has slices
 * left, so the series are bounded by the pools the driver publishes. Thread-safe; the worker
 * thread updates, the registry reads.
 */
public final class PublishedMeters {

  private final MeterRegistry registry;
  private final String driverName;
  private final Map<String, PoolStatus> statuses = new ConcurrentHashMap<>();
  private final Map<String, List<Meter>> meters = new ConcurrentHashMap<>();

  /**
   * Creates the gauges' owner.
   *
   * @param registry the registry, or null to keep the statuses only
   * @param driverName the value of the {@code driver_name} tag
   */
  public PublishedMeters(MeterRegistry registry, String driverName) {
    this.registry = registry;
    this.driverName = driverName;
  }

  /**
   * Records a pool's state after a sync.
   *
   * @param status the pool's state
   */
  public void update(PoolStatus status) {
    String pool = status.pool();
    if (!status.desired() && status.slices() == 0 && status.published()) {
      statuses.remove(pool);
      List<Meter> gone = meters.remove(pool);
      if (gone != null && registry != null) {
        gone.forEach(registry::remove);
      }
      return;
    }
    statuses.put(pool, status);
    if (registry != null) {
      meters.computeIfAbsent(pool, this::register);
    }
  }

  /**
   * The last state of every pool that has one.
   *
   * @return pool names to states, a copy
   */
  public Map<String, PoolStatus> statuses() {
    return Map.copyOf(statuses);
  }

  private List<Meter> register(String pool) {
    return List.of(
        gauge(MetricNames.SLICE_PUBLISHED_DEVICES, pool,
            "Devices of the pool in the API server's ResourceSlices", PoolStatus::devices),
        gauge(MetricNames.SLICE_PUBLISHED_SLICES, pool,
            "ResourceSlices of the pool in the API server", PoolStatus::slices),
        gauge(MetricNames.SLICE_PUBLISH_FAILING, pool,
            "Whether the pool's last ResourceSlice sync failed (1) or succeeded (0)",
            s -> s.published() ? 0 : 1));
  }

  private Gauge gauge(String name, String pool, String description,
      ToIntFunction<PoolStatus> value) {
    return Gauge.builder(name, statuses, all -> {
      PoolStatus status = all.get(pool);
      return status == null ? 0 : value.applyAsInt(status);
    }).description(description).tag(MetricNames.DRIVER_NAME, driverName)
        .tag(MetricNames.POOL, pool).register(registry);
  }
}
