package io.github.dra4j.webhook.internal.http;

import io.github.dra4j.core.metrics.MetricNames;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The webhook's review timer, {@value MetricNames#WEBHOOK_REVIEWS}, one series per outcome, all
 * registered at start so each shows zero before its first request. Thread-safe.
 */
public final class ReviewMeters {

  /** How a request ended. */
  public enum Outcome {
    /** Answered: allowed. */
    ALLOWED,
    /** Answered: denied for invalid configurations. */
    DENIED,
    /** Not a review this webhook answers: 4xx, or timed out. */
    INVALID
  }

  private final Map<Outcome, Timer> timers = new EnumMap<>(Outcome.class);

  /**
   * Registers the timers.
   *
   * @param registry where; a no-op registry records nothing
   * @param driverName the driver, tagged on every series
   */
  public ReviewMeters(MeterRegistry registry, String driverName) {
    for (Outcome outcome : Outcome.values()) {
      timers.put(outcome, Timer.builder(MetricNames.WEBHOOK_REVIEWS)
          .description("Admission requests the device configuration webhook answered")
          .tag(MetricNames.DRIVER_NAME, driverName)
          .tag(MetricNames.DECISION, outcome.name().toLowerCase(Locale.ROOT))
          .serviceLevelObjectives(MetricNames.CALL_DURATION_BUCKETS.toArray(Duration[]::new))
          .register(registry));
    }
  }

  /**
   * Records one request.
   *
   * @param outcome how it ended
   * @param nanos how long it took
   */
  public void record(Outcome outcome, long nanos) {
    timers.get(outcome).record(nanos, TimeUnit.NANOSECONDS);
  }
}
