package io.github.dra4j.resourceslice.internal.sync;

import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.resourceslice.ControllerStats;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Write counts (always kept, for {@link ControllerStats}) and, with a registry, Micrometer meters:
 * counter {@value MetricNames#SLICE_WRITES} (tags {@code driver_name}, {@code operation} =
 * create/update/delete) and timer {@value MetricNames#SLICE_SYNCS} (tags {@code driver_name},
 * {@code result} = success/error). Thread-safe.
 */
public final class SyncMetrics {

  private final AtomicLong creates = new AtomicLong();
  private final AtomicLong updates = new AtomicLong();
  private final AtomicLong deletes = new AtomicLong();
  private final Counter createCounter;
  private final Counter updateCounter;
  private final Counter deleteCounter;
  private final Timer successTimer;
  private final Timer errorTimer;

  /**
   * Creates the metrics.
   *
   * @param registry the registry, or null for counts only
   * @param driverName the value of the {@code driver_name} tag
   */
  public SyncMetrics(MeterRegistry registry, String driverName) {
    if (registry == null) {
      createCounter = updateCounter = deleteCounter = null;
      successTimer = errorTimer = null;
      return;
    }
    createCounter = write(registry, driverName, "create");
    updateCounter = write(registry, driverName, "update");
    deleteCounter = write(registry, driverName, "delete");
    successTimer = sync(registry, driverName, "success");
    errorTimer = sync(registry, driverName, "error");
  }

  private static Counter write(MeterRegistry registry, String driver, String operation) {
    return Counter.builder(MetricNames.SLICE_WRITES)
        .description("ResourceSlice writes accepted by the API server")
        .tag(MetricNames.DRIVER_NAME, driver).tag(MetricNames.OPERATION, operation)
        .register(registry);
  }

  private static Timer sync(MeterRegistry registry, String driver, String outcome) {
    return Timer.builder(MetricNames.SLICE_SYNCS)
        .description("Duration of ResourceSlice pool syncs")
        .tag(MetricNames.DRIVER_NAME, driver).tag(MetricNames.RESULT, outcome)
        .register(registry);
  }

  void created() {
    creates.incrementAndGet();
    if (createCounter != null) {
      createCounter.increment();
    }
  }

  void updated() {
    updates.incrementAndGet();
    if (updateCounter != null) {
      updateCounter.increment();
    }
  }

  void deleted() {
    deletes.incrementAndGet();
    if (deleteCounter != null) {
      deleteCounter.increment();
    }
  }

  /**
   * Records one pool sync.
   *
   * @param duration how long it took
   * @param success whether it succeeded
   */
  public void synced(Duration duration, boolean success) {
    Timer timer = success ? successTimer : errorTimer;
    if (timer != null) {
      timer.record(duration);
    }
  }

  /**
   * Returns the write counts.
   *
   * @return creates, updates and deletes so far
   */
  public ControllerStats stats() {
    return new ControllerStats(creates.get(), updates.get(), deletes.get());
  }
}
