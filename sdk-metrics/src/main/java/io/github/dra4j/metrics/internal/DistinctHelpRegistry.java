package io.github.dra4j.metrics.internal;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.registry.PrometheusScrapeRequest;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A Prometheus registry whose families each have a HELP text of their own. Micrometer shows a
 * timer or distribution summary {@code X} as two families, {@code X} and the gauge {@code X_max},
 * and gives both the meter's one description, so every timer's HELP line appears twice. Here the
 * {@code _max} gauge of such a pair says what it is: {@value #MAX_PREFIX} followed by the
 * description. Every scrape passes through here, whatever the format. Thread-safe, as its parent.
 */
public final class DistinctHelpRegistry extends PrometheusRegistry {

  /** What the HELP text of a timer's or summary's {@code _max} gauge starts with. */
  public static final String MAX_PREFIX = "Largest single value recorded in the last few minutes: ";

  /** A registry with no collectors yet. */
  public DistinctHelpRegistry() {}

  @Override
  public MetricSnapshots scrape() {
    return distinct(super.scrape());
  }

  @Override
  public MetricSnapshots scrape(PrometheusScrapeRequest request) {
    return distinct(super.scrape(request));
  }

  @Override
  public MetricSnapshots scrape(Predicate<String> includedNames) {
    return distinct(super.scrape(includedNames));
  }

  @Override
  public MetricSnapshots scrape(Predicate<String> includedNames,
      PrometheusScrapeRequest request) {
    return distinct(super.scrape(includedNames, request));
  }

  /**
   * The snapshots with each {@code X_max} gauge that repeats the HELP of its family {@code X}
   * described on its own. Idempotent, so an overload that calls another changes nothing twice.
   *
   * @param snapshots a scrape
   * @return the same scrape, HELP texts told apart
   */
  static MetricSnapshots distinct(MetricSnapshots snapshots) {
    Map<String, String> helps = new HashMap<>();
    for (MetricSnapshot snapshot : snapshots) {
      helps.put(snapshot.getMetadata().getPrometheusName(), snapshot.getMetadata().getHelp());
    }
    List<MetricSnapshot> result = new ArrayList<>(snapshots.size());
    boolean changed = false;
    for (MetricSnapshot snapshot : snapshots) {
      MetricMetadata metadata = snapshot.getMetadata();
      String name = metadata.getPrometheusName();
      String help = metadata.getHelp();
      if (snapshot instanceof GaugeSnapshot gauge && name.endsWith("_max") && help != null
          && help.equals(helps.get(name.substring(0, name.length() - 4)))) {
        result.add(new GaugeSnapshot(new MetricMetadata(metadata.getName(), MAX_PREFIX + help,
            metadata.getUnit()), gauge.getDataPoints()));
        changed = true;
      } else {
        result.add(snapshot);
      }
    }
    return changed ? new MetricSnapshots(result) : snapshots;
  }
}
