package io.github.dra4j.kubeletplugin.internal.observability;

import io.github.dra4j.core.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Per-claim outcomes and durations of the kubelet's calls: the gRPC timer says OK for a call whose
 * claims failed and counts a call of 32 claims once, these count and time each claim. {@value
 * MetricNames#CLAIMS_PREPARED} and {@value MetricNames#CLAIMS_UNPREPARED} count claims, {@value
 * MetricNames#CLAIM_PREPARE_DURATION} and {@value MetricNames#CLAIM_UNPREPARE_DURATION} time them,
 * all with tag {@value MetricNames#RESULT} and every series registered at zero. Thread-safe.
 */
public final class ClaimMeters {

  private final Outcome prepared;
  private final Outcome prepareFailed;
  private final Outcome unprepared;
  private final Outcome unprepareFailed;

  /**
   * Registers the meters.
   *
   * @param registry where
   * @param driverName tagged on every series
   */
  public ClaimMeters(MeterRegistry registry, String driverName) {
    prepared = new Outcome(registry, MetricNames.CLAIMS_PREPARED,
        MetricNames.CLAIM_PREPARE_DURATION, driverName, "success");
    prepareFailed = new Outcome(registry, MetricNames.CLAIMS_PREPARED,
        MetricNames.CLAIM_PREPARE_DURATION, driverName, "error");
    unprepared = new Outcome(registry, MetricNames.CLAIMS_UNPREPARED,
        MetricNames.CLAIM_UNPREPARE_DURATION, driverName, "success");
    unprepareFailed = new Outcome(registry, MetricNames.CLAIMS_UNPREPARED,
        MetricNames.CLAIM_UNPREPARE_DURATION, driverName, "error");
  }

  /**
   * Counts and times prepared claims.
   *
   * @param succeeded whether they were prepared
   * @param claims how many
   * @param nanos how long the kubelet waited for their answer
   */
  public void prepared(boolean succeeded, int claims, long nanos) {
    (succeeded ? prepared : prepareFailed).record(claims, nanos);
  }

  /**
   * Counts and times unprepared claims.
   *
   * @param succeeded whether they were unprepared
   * @param claims how many
   * @param nanos how long the kubelet waited for their answer
   */
  public void unprepared(boolean succeeded, int claims, long nanos) {
    (succeeded ? unprepared : unprepareFailed).record(claims, nanos);
  }

  /** The counter and the timer of one operation and result. */
  private static final class Outcome {
    private final Counter counter;
    private final Timer timer;

    Outcome(MeterRegistry registry, String counterName, String timerName, String driverName,
        String result) {
      // Each family its own HELP text: prepare and unprepare are told apart.
      String call = counterName.equals(MetricNames.CLAIMS_PREPARED) ? "prepare" : "unprepare";
      counter = Counter.builder(counterName)
          .description("Claims the kubelet asked the plugin to " + call + ", by outcome")
          .tag(MetricNames.DRIVER_NAME, driverName)
          .tag(MetricNames.RESULT, result)
          .register(registry);
      timer = Timer.builder(timerName)
          .description("How long the kubelet waited for the answer of each claim to "
              + call + ", by outcome")
          .tag(MetricNames.DRIVER_NAME, driverName)
          .tag(MetricNames.RESULT, result)
          .serviceLevelObjectives(MetricNames.CALL_DURATION_BUCKETS.toArray(Duration[]::new))
          .register(registry);
    }

    void record(int claims, long nanos) {
      counter.increment(claims);
      for (int i = 0; i < claims; i++) {
        timer.record(nanos, TimeUnit.NANOSECONDS);
      }
    }
  }
}
