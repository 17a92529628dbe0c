package io.github.dra4j.metrics;

import io.github.dra4j.metrics.internal.DistinctHelpRegistry;
import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * Makes the Prometheus registries a driver's processes serve. A plain {@code new
 * PrometheusMeterRegistry(PrometheusConfig.DEFAULT)} shows every timer twice under one HELP text
 * (the timer and its {@code _max} gauge); one made here gives the {@code _max} gauge a HELP text
 * of its own, so no two families of a scrape share one. The kubelet plugin and the admission
 * webhook make theirs here when the driver gives none. Stateless.
 */
public final class PrometheusRegistries {

  private PrometheusRegistries() {}

  /**
   * A new, empty registry with Micrometer's default Prometheus settings.
   *
   * @return the registry; its owner closes it
   */
  public static PrometheusMeterRegistry create() {
    return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new DistinctHelpRegistry(),
        Clock.SYSTEM);
  }
}
