package io.github.dra4j.webhook;

import io.github.dra4j.metrics.JvmMetrics;
import io.github.dra4j.metrics.PrometheusRegistries;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The registry every meter of a webhook goes to, the Prometheus one among them when metrics are
 * served, and the JVM meters bound to it. Owns the registries it made and the JVM binding; a
 * registry the driver gave is borrowed. Closed by the server.
 *
 * @param all where meters are registered
 * @param prometheus the registry served, or null when none is
 * @param jvm the JVM meters, or null when off
 * @param owned the registry made here, closed with this; null when none was
 */
record WebhookRegistry(MeterRegistry all, PrometheusMeterRegistry prometheus, JvmMetrics jvm,
    MeterRegistry owned) implements AutoCloseable {

  static WebhookRegistry of(MeterRegistry given, boolean served, boolean jvmMetrics) {
    MeterRegistry all;
    PrometheusMeterRegistry prometheus = null;
    MeterRegistry owned = null;
    if (!served) {
      all = given == null ? new SimpleMeterRegistry() : given;
      owned = given == null ? all : null;
    } else if (given instanceof PrometheusMeterRegistry theirs) {
      all = theirs;
      prometheus = theirs;
    } else {
      prometheus = PrometheusRegistries.create();
      owned = prometheus;
      if (given == null) {
        all = prometheus;
      } else {
        CompositeMeterRegistry both = new CompositeMeterRegistry();
        both.add(given);
        both.add(prometheus);
        all = both;
      }
    }
    return new WebhookRegistry(all, prometheus, jvmMetrics ? JvmMetrics.bindTo(all) : null,
        owned);
  }

  @Override
  public void close() {
    if (jvm != null) {
      jvm.close();
    }
    if (owned != null) {
      owned.close();
    }
  }
}
