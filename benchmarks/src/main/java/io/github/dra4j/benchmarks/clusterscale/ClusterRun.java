package io.github.dra4j.benchmarks.clusterscale;

import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One simulated cluster: {@code nodes} driver instances in this JVM, each with its own node name,
 * directories and API client, all against ONE in-memory API server, taken through every {@link
 * NodeEvent} together. Each event runs on all nodes (a few at a time), then the run waits until
 * the server is quiet and records what the event cost in total.
 *
 * @param setup how every node's driver is built
 * @param nodes the node count
 * @param costs each event's total cost over all nodes
 * @param peakWatchStreams the most watch streams seen open while each event ran
 * @param listAndWatchShapes every kind of list and watch the nodes made: verb and request path,
 *     with node names and the resource versions watches resume from left out
 * @param watchTimeouts the {@code timeoutSeconds} the watches asked for: the client ends each
 *     watch after it and opens a new one, one WATCH request per timeout and watch
 * @param claimListBytes the size of one LIST of all ResourceClaims of the cluster (one claim per
 *     node), as the claim cache's informer reads it
 * @param seconds how long the run took
 */
public record ClusterRun(DriverSetup setup, int nodes, Map<NodeEvent, ApiCost> costs,
    Map<NodeEvent, Long> peakWatchStreams, Set<String> listAndWatchShapes,
    LongSummaryStatistics watchTimeouts, long claimListBytes, double seconds) {

  /** The longest an event may take to settle. */
  static final Duration SETTLE_LIMIT = Duration.ofSeconds(60);

  /**
   * Copies the maps.
   *
   * @param setup how every node's driver is built
   * @param nodes the node count
   * @param costs each event's total cost
   * @param peakWatchStreams the most watch streams open during each event
   * @param listAndWatchShapes the kinds of watch seen
   * @param watchTimeouts the watches' timeouts
   * @param claimListBytes bytes of one LIST of all claims
   * @param seconds the run's duration
   */
  public ClusterRun {
    costs = Collections.unmodifiableMap(new EnumMap<>(costs));
    peakWatchStreams = Collections.unmodifiableMap(new EnumMap<>(peakWatchStreams));
    listAndWatchShapes = Set.copyOf(listAndWatchShapes);
  }

  /**
   * Simulates a cluster and measures every event.
   *
   * @param setup how every node's driver is built
   * @param nodes how many nodes
   * @param settings parallelism and quiet period
   * @param root a directory for the nodes' directories, with a short path; a subdirectory named
   *     after the setup and node count is made, so each setup and count may run once per root
   * @return the total cost of each event
   * @throws Exception if a plugin fails or the server does not settle
   */
  static ClusterRun simulate(DriverSetup setup, int nodes, ScaleSettings settings, Path root)
      throws Exception {
    long start = System.nanoTime();
    // Short names: a socket path must stay under 108 bytes.
    Path runRoot = Files.createDirectories(root.resolve(setup.name().charAt(0) + "" + nodes));
    Map<NodeEvent, ApiCost> costs = new EnumMap<>(NodeEvent.class);
    Map<NodeEvent, Long> peaks = new EnumMap<>(NodeEvent.class);
    List<DriverNode> cluster = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(settings.parallelism(), runnable -> {
      Thread thread = new Thread(runnable, "cluster-scale-node");
      thread.setDaemon(true);
      return thread;
    });
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start();
        KubeletClient kubelet = KubeletClient.create()) {
      for (int i = 0; i < nodes; i++) {
        String name = "node-" + i;
        cluster.add(DriverNode.create(server, setup, kubelet, runRoot.resolve("n" + i), name));
      }
      long claimListBytes = server.client().raw("/apis/resource.k8s.io/v1/resourceclaims")
          .getBytes(StandardCharsets.UTF_8).length;
      ApiMeter meter = new ApiMeter(server, settings.quiet(), SETTLE_LIMIT);
      try {
        for (NodeEvent event : NodeEvent.values()) {
          meter.begin();
          List<Future<?>> running = new ArrayList<>();
          for (DriverNode node : cluster) {
            running.add(pool.submit(() -> {
              event.apply(node);
              return null;
            }));
          }
          peaks.put(event, awaitAll(running, meter));
          costs.put(event, meter.settle());
        }
      } finally {
        for (DriverNode node : cluster) {
          node.close();
        }
      }
      return new ClusterRun(setup, nodes, costs, peaks, meter.listAndWatchShapes(),
          meter.watchTimeouts(), claimListBytes, (System.nanoTime() - start) / 1e9);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Waits for every node's event, sampling the open watches; returns the most seen. */
  private static long awaitAll(List<Future<?>> running, ApiMeter meter)
      throws InterruptedException, ExecutionException {
    long peak = meter.openWatches();
    while (!running.stream().allMatch(Future::isDone)) {
      peak = Math.max(peak, meter.openWatches());
      Thread.sleep(5);
    }
    for (Future<?> future : running) {
      future.get();
    }
    return Math.max(peak, meter.openWatches());
  }

  /**
   * One event's cost.
   *
   * @param event the event
   * @return its total over all nodes
   */
  ApiCost cost(NodeEvent event) {
    return costs.get(event);
  }
}
