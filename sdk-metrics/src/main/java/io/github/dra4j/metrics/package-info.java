/**
 * Prometheus metrics for a driver's pods: {@link io.github.dra4j.metrics.PrometheusEndpoint}
 * serves a Micrometer Prometheus registry over HTTP in the text format and OpenMetrics, and
 * {@link io.github.dra4j.metrics.JvmMetrics} adds the JVM's own meters when asked. The kubelet
 * plugin starts an endpoint for its {@code METRICS_PORT}; an admission webhook or any other
 * process of a driver can start its own. The meters dra4j itself registers follow {@link
 * io.github.dra4j.core.metrics.MetricNames}.
 */
package io.github.dra4j.metrics;
