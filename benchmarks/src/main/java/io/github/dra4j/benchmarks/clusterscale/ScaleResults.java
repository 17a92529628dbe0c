package io.github.dra4j.benchmarks.clusterscale;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the benchmark measured: for each driver setup, a run of one node (the per-node figures the
 * model multiplies) and a run of many nodes against one API server (the check of the model).
 *
 * @param settings what ran
 * @param perNode the one-node run of each setup
 * @param cluster the many-node run of each setup
 */
public record ScaleResults(ScaleSettings settings, Map<DriverSetup, ClusterRun> perNode,
    Map<DriverSetup, ClusterRun> cluster) {

  /**
   * Copies the maps.
   *
   * @param settings what ran
   * @param perNode the one-node runs
   * @param cluster the many-node runs
   */
  public ScaleResults {
    perNode = Collections.unmodifiableMap(new EnumMap<>(perNode));
    cluster = Collections.unmodifiableMap(new EnumMap<>(cluster));
  }

  /**
   * What one node paid for an event.
   *
   * @param setup the driver setup
   * @param event the event
   * @return the one-node run's cost
   */
  public ApiCost perNode(DriverSetup setup, NodeEvent event) {
    return perNode.get(setup).cost(event);
  }

  /**
   * What all nodes of the many-node run paid for an event together.
   *
   * @param setup the driver setup
   * @param event the event
   * @return the many-node run's total
   */
  public ApiCost cluster(DriverSetup setup, NodeEvent event) {
    return cluster.get(setup).cost(event);
  }

  /**
   * The model's prediction for the many-node run: the node count times the one-node cost.
   *
   * @param setup the driver setup
   * @param event the event
   * @return the predicted total
   */
  public ApiCost predicted(DriverSetup setup, NodeEvent event) {
    return perNode(setup, event).times(settings.nodes());
  }

  /**
   * Every event whose measured total differs from the prediction, with both; empty when the
   * model holds.
   *
   * @return one line per mismatch
   */
  public List<String> mismatches() {
    List<String> mismatches = new ArrayList<>();
    for (DriverSetup setup : settings.setups()) {
      for (NodeEvent event : NodeEvent.values()) {
        ApiCost predicted = predicted(setup, event);
        ApiCost measured = cluster(setup, event);
        if (!predicted.equals(measured)) {
          mismatches.add(setup.label() + ", " + event.label() + ": predicted "
              + predicted.describe() + " and " + predicted.watchStreams()
              + " watch streams; measured " + measured.describe() + " and "
              + measured.watchStreams() + " watch streams");
        }
      }
    }
    return mismatches;
  }
}
