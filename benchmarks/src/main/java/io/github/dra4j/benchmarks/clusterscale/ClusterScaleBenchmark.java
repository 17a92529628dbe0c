package io.github.dra4j.benchmarks.clusterscale;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a DRA driver built on dra4j costs the API server per node, and so what a cluster pays: a
 * driver runs on every node, so its cost multiplies by the node count.
 *
 * <p>For each driver setup ({@link DriverSetup}: the default path, the opt-in claim cache, a
 * plain {@code DraDriver}), one simulated node is taken through every {@link NodeEvent} of its
 * life (start-up, publish, prepare, re-prepare after a kubelet and after a plugin restart, an
 * upgrade handover, unprepare, shutdown) against an in-memory API server that logs every request;
 * the table shows the requests by verb and resource and the watch streams held. The model
 * multiplies those by 100, 1,000 and 5,000 nodes. Then {@code --nodes} driver instances (each its
 * own node name, directories and API client) go through the same events against ONE API server,
 * and each event's measured total is checked against the model's prediction.
 *
 * <p>Run: {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.clusterscale.ClusterScaleBenchmark
 * -Dexec.args="--nodes 20"} (options: {@value ScaleSettings#USAGE}). Prints Markdown. Takes
 * about two minutes with the defaults on two cores. Exits with status 1 when the model does not
 * hold.
 */
public final class ClusterScaleBenchmark {

  private ClusterScaleBenchmark() {}

  /**
   * Measures, prints the tables, and fails if the model does not match the many-node run.
   *
   * @param args options, see {@link ScaleSettings#USAGE}
   * @throws Exception if a simulated node fails
   */
  public static void main(String[] args) throws Exception {
    // The fabric8 client's Vert.x event loops log a harmless rejected task when a client closes
    // while its watch connection is still closing; drivers closed by the hundred make it noise.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    System.setProperty("org.slf4j.simpleLogger.log.io.netty.util.concurrent.DefaultPromise",
        "off");
    ScaleSettings settings = ScaleSettings.parse(args);
    ScaleResults results = measure(settings, System.out);
    print(results, System.out);
    if (!results.mismatches().isEmpty()) {
      System.exit(1);
    }
  }

  /**
   * Runs one node and then {@code settings.nodes()} nodes of each setup.
   *
   * @param settings what to run
   * @param progress where to report each run as it ends
   * @return the measurements
   * @throws Exception if a simulated node fails or the API server does not settle
   */
  public static ScaleResults measure(ScaleSettings settings, PrintStream progress)
      throws Exception {
    Path root = Files.createTempDirectory("cs");
    try {
      Map<DriverSetup, ClusterRun> perNode = new EnumMap<>(DriverSetup.class);
      Map<DriverSetup, ClusterRun> cluster = new EnumMap<>(DriverSetup.class);
      for (DriverSetup setup : settings.setups()) {
        perNode.put(setup, run(setup, 1, settings, root, progress));
        cluster.put(setup, run(setup, settings.nodes(), settings, root, progress));
      }
      return new ScaleResults(settings, perNode, cluster);
    } finally {
      delete(root);
    }
  }

  private static ClusterRun run(DriverSetup setup, int nodes, ScaleSettings settings, Path root,
      PrintStream progress) throws Exception {
    ClusterRun run = ClusterRun.simulate(setup, nodes, settings, root);
    progress.printf("(ran %s with %d node%s in %.1f s)%n", setup.label(), nodes,
        nodes == 1 ? "" : "s", run.seconds());
    return run;
  }

  /**
   * Prints the settings, the per-node table, the model and its check.
   *
   * @param results the measurements
   * @param out where to print
   */
  public static void print(ScaleResults results, PrintStream out) {
    ScaleSettings settings = results.settings();
    out.println();
    out.println("# Cluster scale: API server cost of a dra4j driver per node ("
        + LocalDate.now(ZoneOffset.UTC) + ")");
    out.println();
    out.println("Each node: its Node object and one allocated ResourceClaim in the in-memory API"
        + " server; the driver as its DaemonSet pod runs it: driver " + DriverNode.DRIVER
        + ", rolling-update mode with a pod UID, node name set and node UID not (the plugin"
        + " reads the Node), its own API client and directories, one pool of "
        + DriverNode.DEVICES + " devices, sliceSyncDelay " + DriverNode.SLICE_SYNC_DELAY.toMillis()
        + " ms (shortened so events settle fast; the requests are the same), upgrade overlap "
        + DriverNode.UPGRADE_OVERLAP.toMillis() + " ms. The kubelet side calls the DRA socket;"
        + " the kubelet's own API requests are not counted. An event is over when the server"
        + " saw no request and no watch change for " + settings.quiet().toMillis() + " ms."
        + " JVM " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors()
        + " CPUs.");
    out.println();
    PerNodeTable.print(results, out);
    ScaleModel.printModel(results, out);
    ScaleModel.printCheck(results, out);
  }

  private static void delete(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.deleteIfExists(path);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException e) {
      System.err.println("could not delete " + root + ": " + e.getMessage());
    }
  }
}
