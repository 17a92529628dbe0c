package io.github.dra4j.benchmarks.clusterscale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cluster-scale benchmark with three nodes: the model holds (three instances on one API
 * server pay three times what one node pays, event by event), and the per-node costs that would
 * hurt a large cluster if they regressed stay as they are.
 */
class ClusterScaleBenchmarkTest {

  private static final int NODES = 3;

  private static ScaleResults results;

  @BeforeAll
  static void measure() throws Exception {
    ScaleSettings settings = new ScaleSettings(NODES, NODES, Duration.ofMillis(300),
        List.of(DriverSetup.DEFAULT, DriverSetup.CLAIM_CACHE), List.of(100, 5_000));
    results = ClusterScaleBenchmark.measure(settings, System.out);
  }

  @Test
  void manyInstancesOnOneApiServerPayTheNodeCountTimesOneNodesCost() {
    assertThat(results.mismatches()).isEmpty();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    ClusterScaleBenchmark.print(results, new PrintStream(printed, true, StandardCharsets.UTF_8));
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains(
        "| re-prepare after kubelet restart | (no request) | 0 | 0 |",
        "| 5,000 nodes |",
        "Model check: 18 of 18 event costs match 3 × the per-node figures.");
  }

  @Test
  void aClaimPreparedAgainInTheSameBootIsNotReadWithTheDefaultSettings() {
    assertThat(results.perNode(DriverSetup.DEFAULT, NodeEvent.PREPARE).requests())
        .as("the first prepare reads the claim once").containsExactly(
            entry("GET resourceclaims", 1L));
    assertThat(results.cluster(DriverSetup.DEFAULT, NodeEvent.KUBELET_RESTART_REPREPARE)
        .requests()).as("kubelet restart").isEmpty();
    assertThat(results.cluster(DriverSetup.DEFAULT, NodeEvent.PLUGIN_RESTART_REPREPARE)
        .requests()).as("plugin restart").isEmpty();
    // Neither a restart nor an upgrade reads the prepared claims: the background check for
    // deleted claims does not run at start (it once read each of them there).
    for (NodeEvent event : List.of(NodeEvent.PLUGIN_RESTART, NodeEvent.UPGRADE_HANDOVER)) {
      assertThat(results.perNode(DriverSetup.DEFAULT, event).count("GET resourceclaims"))
          .as("%s", event).isZero();
    }
    ApiCost handover = results.perNode(DriverSetup.DEFAULT, NodeEvent.UPGRADE_HANDOVER);
    assertThat(handover.count("LIST resourceclaims")).isZero();
    assertThat(handover.watchStreams()).isEqualTo(1);
  }

  @Test
  void theClaimCacheWatchesAllClaimsOfTheClusterFromEveryNode() {
    ApiCost start = results.cluster(DriverSetup.CLAIM_CACHE, NodeEvent.START);
    assertThat(start.requests()).containsExactly(
        entry("LIST resourceclaims", (long) NODES), entry("WATCH resourceclaims", (long) NODES));
    assertThat(start.watchStreams()).isEqualTo(NODES);
    assertThat(results.perNode().get(DriverSetup.CLAIM_CACHE).listAndWatchShapes())
        .filteredOn(shape -> shape.startsWith("WATCH /apis/resource.k8s.io/v1/resourceclaims?"))
        .as("one watch, of every namespace, without a selector").singleElement()
        .satisfies(shape -> assertThat(shape).doesNotContain("Selector"));
    assertThat(results.cluster(DriverSetup.CLAIM_CACHE, NodeEvent.PREPARE).requests())
        .as("answered from the cache").isEmpty();
    assertThat(results.cluster(DriverSetup.CLAIM_CACHE, NodeEvent.PUBLISH).watchStreams())
        .isEqualTo(2L * NODES);
  }

  @Test
  void startUpAndShutdownCostWhatTheModelSays() {
    assertThat(results.perNode(DriverSetup.DEFAULT, NodeEvent.START))
        .as("no request before the sockets are up").isEqualTo(ApiCost.NONE);
    assertThat(results.perNode(DriverSetup.DEFAULT, NodeEvent.PUBLISH).requests())
        // two LISTs: the plugin's first one (limit=1, from the watch cache), which tells an
        // unreachable API server in one line, and the informer's
        .containsExactly(entry("CREATE resourceslices", 1L), entry("GET nodes", 1L),
            entry("LIST resourceslices", 2L), entry("WATCH resourceslices", 1L));
    assertThat(results.perNode(DriverSetup.DEFAULT, NodeEvent.PUBLISH).watchStreams())
        .isEqualTo(1);
    for (DriverSetup setup : List.of(DriverSetup.DEFAULT, DriverSetup.CLAIM_CACHE)) {
      assertThat(results.cluster(setup, NodeEvent.SHUTDOWN))
          .as("%s: no request at shutdown, every watch closed", setup.label())
          .isEqualTo(ApiCost.NONE);
      assertThat(results.cluster(setup, NodeEvent.UNPREPARE).requests()).isEmpty();
    }
  }
}
