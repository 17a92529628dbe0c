package io.github.dra4j.kubeletplugin;

import io.github.dra4j.metrics.PrometheusEndpoint;
import java.util.Objects;

/**
 * What the plugin tells about itself beyond its answers to the kubelet: call logs, meters, the
 * probes' server and Node Events. Where the probe and the metrics listen is the builder's ({@link
 * KubeletPluginBuilder#livenessProbe}, {@link KubeletPluginBuilder#metricsEndpoint}). Set with
 * {@link KubeletPluginBuilder#observability}.
 *
 * @param logCalls whether requests and responses are logged at DEBUG (default true); failures are
 *     always logged
 * @param metricsPath the path of the metrics endpoint; default {@value
 *     PrometheusEndpoint#DEFAULT_PATH}
 * @param jvmMetrics whether the JVM's own meters (memory, garbage collection, threads, class
 *     loading, CPU, uptime) join the plugin's registry. Default off, so a scrape shows only what
 *     the driver does
 * @param livenessProbeLimits what the liveness probe's server lets its clients hold; default
 *     {@link ServerLimits#LIVENESS_PROBE}
 * @param readinessAwaitsSlices whether the readiness service of the health port ({@value
 *     KubeletPlugin#READINESS_SERVICE}) waits for the driver's devices to be published:
 *     NOT_SERVING until every pool of the driver's first {@link KubeletPlugin#publishResources}
 *     has synced, and while any pool's syncs fail. Off, readiness is liveness, for a driver whose
 *     slices another component publishes. Default on
 * @param nodeEvents whether a change of publishing state is posted as an Event about this
 *     plugin's Node ({@code kubectl describe node}): {@code Warning ResourceSlicePublishFailed}
 *     naming the pool and the reason when a pool starts failing, {@code Normal
 *     ResourceSlicePublished} when it is published again; at most one Event per 10 s. Needs RBAC to
 *     create {@code events} in namespace {@code default} (see the README); without it each Event is
 *     logged as refused. Default on
 */
public record ObservabilityOptions(
    boolean logCalls,
    String metricsPath,
    boolean jvmMetrics,
    ServerLimits livenessProbeLimits,
    boolean readinessAwaitsSlices,
    boolean nodeEvents) {

  /** The defaults. */
  public static final ObservabilityOptions DEFAULTS = new ObservabilityOptions(true,
      PrometheusEndpoint.DEFAULT_PATH, false, ServerLimits.LIVENESS_PROBE, true, true);

  /**
   * Checks the options.
   *
   * @param logCalls whether calls are logged at DEBUG
   * @param metricsPath the metrics endpoint's path
   * @param jvmMetrics whether the JVM's meters are registered
   * @param livenessProbeLimits the liveness probe server's limits
   * @param readinessAwaitsSlices whether readiness waits for published slices
   * @param nodeEvents whether Node Events are posted
   * @throws IllegalArgumentException if {@code metricsPath} is not an absolute path other than
   *     {@code /}
   * @throws NullPointerException naming an option that is null
   */
  public ObservabilityOptions {
    metricsPath = PrometheusEndpoint.checkPath(metricsPath);
    Objects.requireNonNull(livenessProbeLimits, "livenessProbeLimits");
  }

  /**
   * These options with call logging on or off.
   *
   * @param on true to log calls
   * @return the new options
   */
  public ObservabilityOptions withLogCalls(boolean on) {
    return new ObservabilityOptions(on, metricsPath, jvmMetrics, livenessProbeLimits,
        readinessAwaitsSlices, nodeEvents);
  }

  /**
   * These options with another metrics path.
   *
   * @param path an absolute path other than {@code /}
   * @return the new options
   */
  public ObservabilityOptions withMetricsPath(String path) {
    return new ObservabilityOptions(logCalls, path, jvmMetrics, livenessProbeLimits,
        readinessAwaitsSlices, nodeEvents);
  }

  /**
   * These options with the JVM's meters on or off.
   *
   * @param on whether to register them
   * @return the new options
   */
  public ObservabilityOptions withJvmMetrics(boolean on) {
    return new ObservabilityOptions(logCalls, metricsPath, on, livenessProbeLimits,
        readinessAwaitsSlices, nodeEvents);
  }

  /**
   * These options with other limits of the liveness probe's server.
   *
   * @param limits the limits
   * @return the new options
   */
  public ObservabilityOptions withLivenessProbeLimits(ServerLimits limits) {
    return new ObservabilityOptions(logCalls, metricsPath, jvmMetrics, limits,
        readinessAwaitsSlices, nodeEvents);
  }

  /**
   * These options with readiness waiting for published slices or not.
   *
   * @param on whether readiness waits for published slices
   * @return the new options
   */
  public ObservabilityOptions withReadinessAwaitsSlices(boolean on) {
    return new ObservabilityOptions(logCalls, metricsPath, jvmMetrics, livenessProbeLimits, on,
        nodeEvents);
  }

  /**
   * These options with Node Events on or off.
   *
   * @param on whether to post Events
   * @return the new options
   */
  public ObservabilityOptions withNodeEvents(boolean on) {
    return new ObservabilityOptions(logCalls, metricsPath, jvmMetrics, livenessProbeLimits,
        readinessAwaitsSlices, on);
  }
}
