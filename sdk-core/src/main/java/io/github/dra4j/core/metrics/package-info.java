/**
 * The naming scheme of dra4j's metrics ({@link io.github.dra4j.core.metrics.MetricNames}): one
 * place for every meter name and tag key the SDK's modules register, so they read alike in
 * Prometheus and the README's list cannot drift from the code.
 */
package io.github.dra4j.core.metrics;
