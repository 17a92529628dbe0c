package io.github.dra4j.kubeletplugin.internal.observability;

import io.github.dra4j.core.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Per-claim outcomes of the kubelet's calls: the gRPC timer says OK for a call whose claims
 * failed, these count each claim. {@value MetricNames#CLAIMS_PREPARED} and {@value
 * MetricNames#CLAIMS_UNPREPARED}, tag {@value MetricNames#RESULT}, every series registered at
 * zero. Thread-safe.
 */
public final class ClaimMeters {

  private final Counter prepared;
  private final Counter prepareFailed;
  private final Counter unprepared;
  private final Counter unprepareFailed;

  /**
   * Registers the counters.
   *
   * @param registry where
   * @param driverName tagged on every series
   */
  public ClaimMeters(MeterRegistry registry, String driverName) {
    prepared = counter(registry, MetricNames.CLAIMS_PREPARED, driverName, "success");
    prepareFailed = counter(registry, MetricNames.CLAIMS_PREPARED, driverName, "error");
    unprepared = counter(registry, MetricNames.CLAIMS_UNPREPARED, driverName, "success");
    unprepareFailed = counter(registry, MetricNames.CLAIMS_UNPREPARED, driverName, "error");
  }

  /**
   * Counts prepared claims.
   *
   * @param succeeded whether they were prepared
   * @param claims how many
   */
  public void prepared(boolean succeeded, int claims) {
    (succeeded ? prepared : prepareFailed).increment(claims);
  }

  /**
   * Counts unprepared claims.
   *
   * @param succeeded whether they were unprepared
   * @param claims how many
   */
  public void unprepared(boolean succeeded, int claims) {
    (succeeded ? unprepared : unprepareFailed).increment(claims);
  }

  private static Counter counter(MeterRegistry registry, String name, String driverName,
      String result) {
    return Counter.builder(name)
        .description("Claims the kubelet asked the plugin to handle, by outcome")
        .tag(MetricNames.DRIVER_NAME, driverName)
        .tag(MetricNames.RESULT, result)
        .register(registry);
  }
}
