package io.github.dra4j.benchmarks.clusterscale;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Set;
import java.util.TreeSet;

/**
 * Prints the per-node table: for each event of a node's life, the requests one node's driver
 * made, by verb and resource, and the watch streams it held afterwards, one column per driver
 * setup. Markdown, so it can go into the README as printed.
 */
final class PerNodeTable {

  private PerNodeTable() {}

  /**
   * Prints the table and the watches the nodes opened.
   *
   * @param results the measurements
   * @param out where to print
   */
  static void print(ScaleResults results, PrintStream out) {
    List<DriverSetup> setups = results.settings().setups();
    out.println("## Per node: API requests and watch streams of each event (one node's run)");
    out.println();
    StringBuilder heading = new StringBuilder("| event | request |");
    StringBuilder rule = new StringBuilder("|---|---|");
    for (DriverSetup setup : setups) {
      heading.append(' ').append(setup.label()).append(" |");
      rule.append("--:|");
    }
    out.println(heading);
    out.println(rule);
    for (NodeEvent event : NodeEvent.values()) {
      List<ApiCost> costs = new ArrayList<>();
      for (DriverSetup setup : setups) {
        costs.add(results.perNode(setup, event));
      }
      String label = event.label();
      for (String name : ApiCost.names(costs)) {
        StringBuilder row = new StringBuilder("| " + label + " | " + name + " |");
        for (ApiCost cost : costs) {
          row.append(' ').append(cost.count(name)).append(" |");
        }
        out.println(row);
        label = "";
      }
      if (costs.stream().allMatch(cost -> cost.total() == 0)) {
        StringBuilder row = new StringBuilder("| " + label + " | (no request) |");
        costs.forEach(cost -> row.append(" 0 |"));
        out.println(row);
        label = "";
      }
      StringBuilder watches = new StringBuilder("| " + label + " | *watch streams held after*"
          + (event == NodeEvent.UPGRADE_HANDOVER ? " *(peak during)*" : "") + " |");
      for (DriverSetup setup : setups) {
        ApiCost cost = results.perNode(setup, event);
        watches.append(' ').append(cost.watchStreams());
        if (event == NodeEvent.UPGRADE_HANDOVER) {
          watches.append(" (").append(results.perNode().get(setup).peakWatchStreams().get(event))
              .append(')');
        }
        watches.append(" |");
      }
      out.println(watches);
    }
    out.println();
    printWatches(results, out);
  }

  /** The kinds of watch opened and how long each lasts before the client opens it again. */
  private static void printWatches(ScaleResults results, PrintStream out) {
    Set<String> shapes = new TreeSet<>();
    LongSummaryStatistics timeouts = new LongSummaryStatistics();
    for (ClusterRun run : results.perNode().values()) {
      shapes.addAll(run.listAndWatchShapes());
      timeouts.combine(run.watchTimeouts());
    }
    for (ClusterRun run : results.cluster().values()) {
      timeouts.combine(run.watchTimeouts());
    }
    out.println("Lists and watches the drivers made (node name and the resource version a watch"
        + " resumes from left out; a LIST with resourceVersion=0 is served from the API server's"
        + " watch cache):");
    for (String shape : shapes) {
      out.println("- `" + shape + "`");
    }
    if (timeouts.getCount() > 0) {
      out.printf("Each watch asks for timeoutSeconds %d to %d (%d watches seen): the client ends"
          + " it then and opens it again from its last resource version.%n", timeouts.getMin(),
          timeouts.getMax(), timeouts.getCount());
    }
    out.println();
  }
}
