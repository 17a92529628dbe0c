package io.github.dra4j.benchmarks.clusterscale;

import io.github.dra4j.lifecycle.ClaimLifecycle;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.LongUnaryOperator;

/**
 * The model: a node's driver costs the API server the same whatever the cluster's size, so a
 * cluster pays the per-node figures times its node count. Prints what that means for the
 * configured node counts, and the check of the model against the run with many driver instances
 * on one API server.
 */
final class ScaleModel {

  /** Prepared claims per node, as simulated; the claim sweep and re-prepare rows scale with it. */
  static final int CLAIMS_PER_NODE = 1;

  private static final long SECONDS_PER_HOUR = 3600;

  private ScaleModel() {}

  /**
   * Prints the model for each node count.
   *
   * @param results the measurements
   * @param out where to print
   */
  static void printModel(ScaleResults results, PrintStream out) {
    List<Integer> scales = results.settings().scales();
    out.println("## Model: per-node figures × node count (" + CLAIMS_PER_NODE
        + " prepared claim per node)");
    out.println();
    StringBuilder heading = new StringBuilder("| figure | setup | per node |");
    StringBuilder rule = new StringBuilder("|---|---|--:|");
    for (int nodes : scales) {
      heading.append(' ').append(number(nodes)).append(" nodes |");
      rule.append("--:|");
    }
    out.println(heading);
    out.println(rule);
    for (DriverSetup setup : results.settings().setups()) {
      printSetup(results, setup, scales, out);
    }
    out.println();
    out.println("Rows marked *modeled* use a figure the simulation does not wait for: the watch"
        + " timeout the client asks for, the claim sweep's interval ("
        + ClaimLifecycle.DEFAULT_GONE_CLAIM_CHECK_INTERVAL.toMinutes() + " min), the size of a"
        + " LIST of all claims (measured, one small claim per node; real claims are larger), and"
        + " that a watch of all claims gets every change of every claim.");
    out.println();
  }

  private static void printSetup(ScaleResults results, DriverSetup setup, List<Integer> scales,
      PrintStream out) {
    ClusterRun one = results.perNode().get(setup);
    ApiCost publish = results.perNode(setup, NodeEvent.PUBLISH);
    ApiCost start = results.perNode(setup, NodeEvent.START);
    ApiCost handover = results.perNode(setup, NodeEvent.UPGRADE_HANDOVER);
    long watches = publish.watchStreams();
    long claimWatches = start.then(publish).count("WATCH resourceclaims");
    row(out, "watch streams held by running drivers", setup, scales, n -> n * watches);
    row(out, "… of them on all ResourceClaims of the cluster", setup, scales,
        n -> n * claimWatches);
    for (String name : handover.requests().keySet()) {
      row(out, "rolling upgrade of the DaemonSet: " + name, setup, scales,
          n -> n * handover.count(name));
    }
    row(out, "rolling upgrade of the DaemonSet: all requests", setup, scales,
        n -> n * handover.total());
    long surge = one.peakWatchStreams().get(NodeEvent.UPGRADE_HANDOVER) - watches;
    row(out, "rolling upgrade, one node at a time: peak watch streams", setup, scales,
        n -> n * watches + surge);
    long claimLists = handover.count("LIST resourceclaims");
    if (claimLists > 0) {
      ClusterRun many = results.cluster().get(setup);
      long bytesPerClaim = many.claimListBytes() / many.nodes();
      row(out, "rolling upgrade: claims sent by the LISTs of all claims (*modeled*)", setup,
          scales, n -> n * claimLists * n * CLAIMS_PER_NODE);
      row(out, "rolling upgrade: MB sent by those LISTs, ~" + bytesPerClaim
          + " B per claim (*modeled*)", setup, scales,
          n -> n * claimLists * n * CLAIMS_PER_NODE * bytesPerClaim / 1_000_000);
    }
    ApiCost kubeletRestart = results.perNode(setup, NodeEvent.KUBELET_RESTART_REPREPARE);
    row(out, "kubelet restart on every node: claim GETs", setup, scales,
        n -> n * kubeletRestart.count("GET resourceclaims"));
    ApiCost pluginRestart = results.perNode(setup, NodeEvent.PLUGIN_RESTART)
        .then(results.perNode(setup, NodeEvent.PLUGIN_RESTART_REPREPARE));
    row(out, "plugin restart and re-prepare on every node: claim GETs", setup, scales,
        n -> n * pluginRestart.count("GET resourceclaims"));
    double timeout = one.watchTimeouts().getCount() > 0 ? one.watchTimeouts().getAverage()
        : Double.NaN;
    if (!Double.isNaN(timeout)) {
      row(out, "steady state: WATCH requests per hour, a watch ends every ~"
          + Math.round(timeout) + " s (*modeled*)", setup, scales,
          n -> Math.round(n * watches * SECONDS_PER_HOUR / timeout));
    }
    if (setup.lifecycle()) {
      long perHour = SECONDS_PER_HOUR
          / ClaimLifecycle.DEFAULT_GONE_CLAIM_CHECK_INTERVAL.toSeconds();
      row(out, "steady state: claim sweep GETs per hour (*modeled*)", setup, scales,
          n -> n * CLAIMS_PER_NODE * perHour);
    }
    row(out, "watch events sent per write of any claim (*modeled*)", setup, scales,
        n -> n * claimWatches);
  }

  private static void row(PrintStream out, String figure, DriverSetup setup,
      List<Integer> scales, LongUnaryOperator forNodes) {
    StringBuilder row = new StringBuilder("| " + figure + " | " + setup.label() + " | "
        + number(forNodes.applyAsLong(1)) + " |");
    for (int nodes : scales) {
      row.append(' ').append(number(forNodes.applyAsLong(nodes))).append(" |");
    }
    out.println(row);
  }

  /**
   * Prints the check: each event's total in the many-node run against the node count times the
   * one-node figure.
   *
   * @param results the measurements
   * @param out where to print
   */
  static void printCheck(ScaleResults results, PrintStream out) {
    int nodes = results.settings().nodes();
    List<DriverSetup> setups = results.settings().setups();
    out.println("## Check: " + nodes + " driver instances on one API server against " + nodes
        + " × the per-node figures");
    out.println();
    out.println("Each cell: requests and watch streams held after the event, measured in the "
        + nodes + "-node run (" + results.settings().parallelism() + " nodes at a time); ✓ when"
        + " every count by verb and resource, and the watch streams, equal the prediction.");
    out.println();
    StringBuilder heading = new StringBuilder("| event |");
    StringBuilder rule = new StringBuilder("|---|");
    for (DriverSetup setup : setups) {
      heading.append(' ').append(setup.label()).append(" |");
      rule.append("---|");
    }
    out.println(heading);
    out.println(rule);
    for (NodeEvent event : NodeEvent.values()) {
      StringBuilder row = new StringBuilder("| " + event.label() + " |");
      for (DriverSetup setup : setups) {
        ApiCost measured = results.cluster(setup, event);
        boolean match = measured.equals(results.predicted(setup, event));
        row.append(' ').append(match ? "✓ " : "✗ ").append(measured.total()).append(" req, ")
            .append(measured.watchStreams()).append(" watches |");
      }
      out.println(row);
    }
    out.println();
    List<String> mismatches = results.mismatches();
    int checked = setups.size() * NodeEvent.values().length;
    out.printf("Model check: %d of %d event costs match %d × the per-node figures.%n",
        checked - mismatches.size(), checked, nodes);
    mismatches.forEach(line -> out.println("MISMATCH " + line));
    for (DriverSetup setup : setups) {
      ApiCost upgrade = results.cluster(setup, NodeEvent.UPGRADE_HANDOVER);
      ApiCost predicted = results.predicted(setup, NodeEvent.UPGRADE_HANDOVER);
      out.printf("Rolling upgrade of %d nodes, %s: predicted %s; measured %s: %s%n", nodes,
          setup.label(), predicted.describe(), upgrade.describe(),
          upgrade.equals(predicted) ? "match" : "MISMATCH");
    }
    out.println();
  }

  /**
   * Formats a count with thousands separators.
   *
   * @param value the count
   * @return for example {@code 5,000}
   */
  static String number(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }
}
