package io.github.dra4j.benchmarks.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.benchmarks.kubeletplugin.BenchmarkClaims;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The latency of a Prometheus scrape of a running kubelet plugin's metrics endpoint ({@code
 * KubeletPluginBuilder.metricsEndpoint}), and the size of what it serves: the plugin runs with a
 * no-op driver, has prepared and unprepared a few claims so every series has values, and one
 * HTTP/1.1 client with keep-alive (as Prometheus keeps its connection) scrapes it again and again.
 *
 * <p>Printed per scenario (text format or OpenMetrics, the JVM's own meters off or on): p50, p99
 * and max latency in ms from request sent to body read, scrapes per second, the page's size and
 * its number of samples. A scrape every 15 to 60 s is what Prometheus does, so the figure that
 * matters is the latency and the cost of one scrape, not the rate.
 *
 * <p>Run: {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.metrics.ScrapeBenchmark} (optional argument:
 * scrapes per scenario, default 2000).
 */
public final class ScrapeBenchmark {

  private static final String DRIVER = "bench.example.com";
  private static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0";

  private ScrapeBenchmark() {}

  /** Figures of one scenario. */
  @SuppressWarnings("ArrayRecordComponent") // samples for statistics, never compared
  record Result(String scenario, double[] latenciesMs, double wallSeconds, int bytes,
      long samples) {

    double percentile(double p) {
      double[] sorted = latenciesMs.clone();
      Arrays.sort(sorted);
      int index = (int) Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1);
      return sorted[Math.max(0, index)];
    }

    String format() {
      return String.format(Locale.ROOT, "%-36s %8.3f %8.3f %8.3f %10.0f %9d %8d", scenario,
          percentile(50), percentile(99), percentile(100), latenciesMs.length / wallSeconds,
          bytes, samples);
    }
  }

  /** A driver that prepares every claim with no devices. */
  private static final class NoOpDriver implements DraDriver {
    @Override
    public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
        CallContext context) {
      return claims.stream().collect(Collectors.toMap(c -> c.getMetadata().getUid(),
          c -> PrepareResult.prepared()));
    }

    @Override
    public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
        CallContext context) {
      return claims.stream().collect(Collectors.toMap(ClaimReference::uid,
          c -> UnprepareResult.ok()));
    }
  }

  /**
   * Runs every scenario and prints one line each.
   *
   * @param args optional: scrapes per scenario
   * @throws Exception on setup failure
   */
  public static void main(String[] args) throws Exception {
    int scrapes = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    Path root = Files.createTempDirectory("dra4j-scrape");
    System.out.printf("Scrapes of a kubelet plugin's metrics endpoint, one keep-alive client,"
        + " %d scrapes per scenario (after %d warm-up)%n", scrapes, scrapes / 4);
    System.out.printf("%-36s %8s %8s %8s %10s %9s %8s%n", "scenario", "p50 ms", "p99 ms",
        "max ms", "scrapes/s", "bytes", "samples");
    for (boolean jvm : new boolean[] {false, true}) {
      for (boolean openMetrics : new boolean[] {false, true}) {
        System.out.println(run(root, jvm, openMetrics, scrapes / 4, scrapes).format());
      }
    }
  }

  /**
   * One scenario: a plugin started for it, claims prepared, then scraped.
   *
   * @param root a directory for the plugin's sockets and files
   * @param jvm whether the JVM's own meters are on
   * @param openMetrics whether to ask for OpenMetrics instead of the text format
   * @param warmup scrapes not timed
   * @param scrapes scrapes timed
   * @return the figures
   * @throws Exception on setup failure or a failed scrape
   */
  static Result run(Path root, boolean jvm, boolean openMetrics, int warmup, int scrapes)
      throws Exception {
    Path dir = Files.createTempDirectory(root, "run");
    Files.createDirectories(dir.resolve("registry"));
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start();
        KubeletPlugin plugin = KubeletPlugin.builder(new NoOpDriver())
            .driverName(DRIVER).kubeClient(server.client())
            .registrarDirectory(dir.resolve("registry")).pluginDataDirectory(dir)
            .metricsEndpoint(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .jvmMetrics(jvm)
            .logCalls(false).closeOnShutdown(false).start();
        KubeletClient kubelet = KubeletClient.create()) {
      for (int i = 0; i < 20; i++) {
        ResourceClaim claim = BenchmarkClaims.store(server.client(), DRIVER, "claim-" + i);
        var wire = KubeletClient.claim("default", claim.getMetadata().getName(),
            claim.getMetadata().getUid());
        kubelet.prepare(plugin.draSocket(), wire);
        kubelet.unprepare(plugin.draSocket(), wire);
      }
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
          + plugin.metricsPort().orElseThrow() + "/metrics")).timeout(Duration.ofSeconds(10));
      if (openMetrics) {
        request.header("Accept", OPENMETRICS);
      }
      HttpRequest get = request.build();
      String body = "";
      for (int i = 0; i < warmup; i++) {
        body = scrape(http, get);
      }
      double[] latencies = new double[scrapes];
      long start = System.nanoTime();
      for (int i = 0; i < scrapes; i++) {
        long begin = System.nanoTime();
        body = scrape(http, get);
        latencies[i] = (System.nanoTime() - begin) / 1e6;
      }
      double wall = (System.nanoTime() - start) / 1e9;
      String scenario = (openMetrics ? "OpenMetrics" : "text format") + ", JVM meters "
          + (jvm ? "on" : "off");
      long samples = body.lines().filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .count();
      return new Result(scenario, latencies, wall, body.getBytes(UTF_8).length, samples);
    }
  }

  private static String scrape(HttpClient http, HttpRequest get)
      throws IOException, InterruptedException {
    HttpResponse<String> answer = http.send(get, HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200 || !answer.body().contains("dra4j_plugin_claims_prepared")) {
      throw new IllegalStateException("scrape failed: " + answer.statusCode());
    }
    return answer.body();
  }
}
