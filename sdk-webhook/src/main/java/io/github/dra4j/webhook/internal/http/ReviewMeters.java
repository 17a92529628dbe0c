package io.github.dra4j.webhook.internal.http;

import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.webhook.AdmissionDecision;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The webhook's review timer, {@value MetricNames#WEBHOOK_REVIEWS}, one series per resource and
 * outcome: reviews of claims and of templates, allowed or denied; of other resources, allowed;
 * and requests that were no review ({@code unknown}, invalid). Those are registered at start, so
 * each shows zero before its first request; the tag values come from a fixed set, never from
 * what a client sent. Thread-safe.
 */
public final class ReviewMeters {

  /** The resource of a request that was no review to read one from. */
  public static final String UNKNOWN_RESOURCE = "unknown";

  /** How a request ended. */
  public enum Outcome {
    /** Answered: allowed. */
    ALLOWED,
    /** Answered: denied for invalid configurations. */
    DENIED,
    /** Not a review this webhook answers: 4xx, or timed out. */
    INVALID
  }

  private record Series(String resource, Outcome outcome) {}

  private final MeterRegistry registry;
  private final String driverName;
  private final Map<Series, Timer> timers = new ConcurrentHashMap<>();

  /**
   * Registers the timers.
   *
   * @param registry where; a no-op registry records nothing
   * @param driverName the driver, tagged on every series
   */
  public ReviewMeters(MeterRegistry registry, String driverName) {
    this.registry = registry;
    this.driverName = driverName;
    for (String resource : List.of(AdmissionDecision.RESOURCE_CLAIMS,
        AdmissionDecision.RESOURCE_CLAIM_TEMPLATES)) {
      timer(resource, Outcome.ALLOWED);
      timer(resource, Outcome.DENIED);
    }
    timer(AdmissionDecision.OTHER_RESOURCE, Outcome.ALLOWED);
    timer(UNKNOWN_RESOURCE, Outcome.INVALID);
  }

  /**
   * Records one request that was no review, or whose answer did not reach its client.
   *
   * @param nanos how long it took
   */
  public void invalid(long nanos) {
    record(UNKNOWN_RESOURCE, Outcome.INVALID, nanos);
  }

  /**
   * Records one request.
   *
   * @param resource {@link AdmissionDecision#resource()}, or {@value #UNKNOWN_RESOURCE}
   * @param outcome how it ended
   * @param nanos how long it took
   */
  public void record(String resource, Outcome outcome, long nanos) {
    timer(resource, outcome).record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer timer(String resource, Outcome outcome) {
    return timers.computeIfAbsent(new Series(resource, outcome),
        series -> Timer.builder(MetricNames.WEBHOOK_REVIEWS)
            .description("Admission requests the device configuration webhook answered, by"
                + " resource and decision")
            .tag(MetricNames.DRIVER_NAME, driverName)
            .tag(MetricNames.RESOURCE, series.resource())
            .tag(MetricNames.DECISION, series.outcome().name().toLowerCase(Locale.ROOT))
            .serviceLevelObjectives(MetricNames.CALL_DURATION_BUCKETS.toArray(Duration[]::new))
            .register(registry));
  }
}
