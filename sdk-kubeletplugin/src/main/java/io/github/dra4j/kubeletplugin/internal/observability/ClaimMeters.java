package io.github.dra4j.kubeletplugin.internal.observability;

import io.github.dra4j.core.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Per-claim outcomes and durations of the kubelet's calls: the gRPC timer says OK for a call whose
 * claims failed and counts a call of 32 claims once, these count and time each claim. {@value
 * MetricNames#CLAIMS_PREPARED} and {@value MetricNames#CLAIMS_UNPREPARED} count claims with tags
 * {@value MetricNames#RESULT} and {@value MetricNames#REASON} ({@value ClaimFailure#NONE} for a
 * success, a {@link ClaimFailure} for a failure); {@value MetricNames#CLAIM_PREPARE_DURATION} and
 * {@value MetricNames#CLAIM_UNPREPARE_DURATION} time them with {@value MetricNames#RESULT} only,
 * so the reasons do not multiply the histograms' buckets. Every series is registered at zero.
 * Thread-safe.
 */
public final class ClaimMeters {

  private final Operation prepare;
  private final Operation unprepare;

  /**
   * Registers the meters.
   *
   * @param registry where
   * @param driverName tagged on every series
   */
  public ClaimMeters(MeterRegistry registry, String driverName) {
    prepare = new Operation(registry, MetricNames.CLAIMS_PREPARED,
        MetricNames.CLAIM_PREPARE_DURATION, driverName, "prepare");
    unprepare = new Operation(registry, MetricNames.CLAIMS_UNPREPARED,
        MetricNames.CLAIM_UNPREPARE_DURATION, driverName, "unprepare");
  }

  /**
   * Counts and times prepared claims.
   *
   * @param failure why they failed, or null if they were prepared
   * @param claims how many
   * @param nanos how long the kubelet waited for their answer
   */
  public void prepared(ClaimFailure failure, int claims, long nanos) {
    prepare.record(failure, claims, nanos);
  }

  /**
   * Counts and times unprepared claims.
   *
   * @param failure why they failed, or null if they were unprepared
   * @param claims how many
   * @param nanos how long the kubelet waited for their answer
   */
  public void unprepared(ClaimFailure failure, int claims, long nanos) {
    unprepare.record(failure, claims, nanos);
  }

  /** The counters and timers of one operation. */
  private static final class Operation {
    private final Counter succeeded;
    private final Map<ClaimFailure, Counter> failed = new EnumMap<>(ClaimFailure.class);
    private final Timer successTimer;
    private final Timer errorTimer;

    // Each family its own HELP text: prepare and unprepare are told apart.
    Operation(MeterRegistry registry, String counterName, String timerName, String driverName,
        String call) {
      succeeded = counter(registry, counterName, driverName, call, "success", ClaimFailure.NONE);
      for (ClaimFailure failure : ClaimFailure.values()) {
        failed.put(failure,
            counter(registry, counterName, driverName, call, "error", failure.tag()));
      }
      successTimer = timer(registry, timerName, driverName, call, "success");
      errorTimer = timer(registry, timerName, driverName, call, "error");
    }

    private static Counter counter(MeterRegistry registry, String name, String driverName,
        String call, String result, String reason) {
      return Counter.builder(name)
          .description("Claims the kubelet asked the plugin to " + call + ", by outcome and"
              + " reason")
          .tag(MetricNames.DRIVER_NAME, driverName)
          .tag(MetricNames.RESULT, result)
          .tag(MetricNames.REASON, reason)
          .register(registry);
    }

    private static Timer timer(MeterRegistry registry, String name, String driverName,
        String call, String result) {
      return Timer.builder(name)
          .description("How long the kubelet waited for the answer of each claim to " + call
              + ", by outcome")
          .tag(MetricNames.DRIVER_NAME, driverName)
          .tag(MetricNames.RESULT, result)
          .serviceLevelObjectives(MetricNames.CALL_DURATION_BUCKETS.toArray(Duration[]::new))
          .register(registry);
    }

    void record(ClaimFailure failure, int claims, long nanos) {
      (failure == null ? succeeded : failed.get(failure)).increment(claims);
      Timer timer = failure == null ? successTimer : errorTimer;
      for (int i = 0; i < claims; i++) {
        timer.record(nanos, TimeUnit.NANOSECONDS);
      }
    }
  }
}
