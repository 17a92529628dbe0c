package io.github.dra4j.benchmarks.kubeletplugin;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.KubeletPluginBuilder;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * Prepare round trips of one claim over the plugin's Unix socket with a no-op driver, as the
 * kubelet makes them: p50, p99 and calls per second, serialized and not, 1 and 8 concurrent
 * callers, with one claim GET per call (against the in-memory API server) and with the opt-in
 * claim cache. The GET alone is timed too, so the SDK's own share can be read off.
 *
 * <p>A second table prices the per-claim meters (a counter and a histogram timer per claim and
 * outcome) in a Prometheus registry, as a driver with its metrics endpoint has them: the same
 * calls of 1 and of 32 claims with the meters on, and with a Micrometer filter that turns exactly
 * those meters into no-ops. The two alternate over several rounds and the medians are printed,
 * so a drift of the machine does not read as a difference.
 *
 * <p>Run: {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.kubeletplugin.PrepareBenchmark} (optional argument:
 * calls per scenario, default 10000).
 */
public final class PrepareBenchmark {

  private static final String DRIVER = "bench.example.com";

  private PrepareBenchmark() {}

  /** A driver that prepares every claim with no devices. */
  private static final class NoOpDriver implements DraDriver {
    @Override
    public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
        CallContext context) {
      Map<String, PrepareResult> results = new HashMap<>();
      claims.forEach(claim -> results.put(claim.getMetadata().getUid(), PrepareResult.prepared()));
      return results;
    }

    @Override
    public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
        CallContext context) {
      return Map.of();
    }
  }

  /**
   * Runs every scenario and prints one line each.
   *
   * @param args optional: calls per scenario
   * @throws Exception on setup failure
   */
  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    Path root = Files.createTempDirectory("dra4j-bench");
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start()) {
      KubernetesClient client = server.client();
      ResourceClaim stored = BenchmarkClaims.store(client, DRIVER, "bench");
      Claim wire = Claim.newBuilder().setNamespace("default").setName("bench")
          .setUid(stored.getMetadata().getUid()).build();

      System.out.printf("Prepare round trips of one claim over the Unix socket, no-op driver,"
          + " %d calls per scenario (after %d warm-up calls)%n", calls, calls / 5);
      System.out.printf("%-44s %9s %9s %11s%n", "scenario", "p50 ms", "p99 ms", "calls/s");
      Percentiles get = timeGets(client, calls);
      System.out.printf("%-44s %9.3f %9.3f %11.0f%n", "claim GET alone (in-memory API server)",
          get.p50(), get.p99(), get.rate());
      for (boolean cache : new boolean[] {false, true}) {
        for (boolean serialize : new boolean[] {true, false}) {
          for (int callers : new int[] {1, 8}) {
            if (!serialize && callers == 1) {
              continue;
            }
            Percentiles p = run(root, NodePrepareResourcesRequest.newBuilder()
                .addClaims(wire).build(), null, serialize, cache, callers, calls, client);
            String name = (serialize ? "serialized" : "unserialized") + ", " + callers
                + (callers == 1 ? " caller" : " callers") + (cache ? ", claim cache" : ", GET");
            System.out.printf("%-44s %9.3f %9.3f %11.0f%n", name, p.p50(), p.p99(), p.rate());
          }
        }
      }
      perClaimMeters(client, root, calls);
    }
  }

  /** The rounds each of "meters on" and "meters off" run, alternating. */
  private static final int ROUNDS = 5;

  /** The per-claim meters' price: the same calls with them on and denied, medians of rounds. */
  private static void perClaimMeters(KubernetesClient client, Path root, int calls)
      throws Exception {
    System.out.printf("%nPer-claim meters in a Prometheus registry: serialized, 1 caller, claim"
        + " cache; median of %d alternating rounds%n", ROUNDS);
    System.out.printf("%-44s %9s %9s %11s %11s%n", "scenario", "p50 ms", "p99 ms", "calls/s",
        "claims/s");
    for (int batch : new int[] {1, 32}) {
      NodePrepareResourcesRequest request = batchRequest(client, batch);
      List<Percentiles> on = new ArrayList<>();
      List<Percentiles> off = new ArrayList<>();
      for (int round = 0; round < ROUNDS; round++) {
        on.add(run(root, request, prometheus(false), true, true, 1, calls / batch + 1, client));
        off.add(run(root, request, prometheus(true), true, true, 1, calls / batch + 1, client));
      }
      for (boolean meters : new boolean[] {true, false}) {
        Percentiles p = Percentiles.median(meters ? on : off);
        System.out.printf("%-44s %9.3f %9.3f %11.0f %11.0f%n", batch + (batch == 1 ? " claim"
            : " claims") + " per call, per-claim meters " + (meters ? "on" : "off"),
            p.p50(), p.p99(), p.rate(), p.rate() * batch);
      }
    }
  }

  /** A Prometheus registry, with the per-claim meters turned into no-ops if asked. */
  private static MeterRegistry prometheus(boolean withoutClaimMeters) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    if (withoutClaimMeters) {
      registry.config()
          .meterFilter(MeterFilter.deny(id -> id.getName().startsWith("dra4j.plugin.claims.")));
    }
    return registry;
  }

  /** A request for {@code size} allocated claims stored in the API server. */
  private static NodePrepareResourcesRequest batchRequest(KubernetesClient client, int size) {
    NodePrepareResourcesRequest.Builder request = NodePrepareResourcesRequest.newBuilder();
    for (int i = 0; i < size; i++) {
      ResourceClaim stored = BenchmarkClaims.store(client, DRIVER, "batch-" + size + "-" + i);
      request.addClaims(Claim.newBuilder().setNamespace("default")
          .setName(stored.getMetadata().getName()).setUid(stored.getMetadata().getUid()));
    }
    return request.build();
  }

  /**
   * One scenario: a plugin started for it, warmed up, then timed.
   *
   * @param registry the plugin's meter registry, or null for its default
   */
  private static Percentiles run(Path root, NodePrepareResourcesRequest request,
      MeterRegistry registry, boolean serialize, boolean cache, int callers, int calls,
      KubernetesClient client) throws Exception {
    Path dir = Files.createTempDirectory(root, "run");
    Files.createDirectories(dir.resolve("registry"));
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
    KubeletPluginBuilder builder = KubeletPlugin.builder(new NoOpDriver())
        .driverName(DRIVER).kubeClient(client)
        .registrarDirectory(dir.resolve("registry")).pluginDataDirectory(dir)
        .serialization(s -> s.withEnabled(serialize)).apiServer(a -> a.withClaimCache(cache))
        .observability(o -> o.withLogCalls(false)).shutdown(s -> s.withCloseOnShutdown(false));
    if (registry != null) {
      builder.meterRegistry(registry);
    }
    try (KubeletPlugin plugin = builder.start()) {
      ManagedChannel channel = NettyChannelBuilder
          .forAddress(new DomainSocketAddress(plugin.draSocket().toString()))
          .eventLoopGroup(group).channelType(EpollDomainSocketChannel.class)
          .withOption(ChannelOption.SO_KEEPALIVE, null)
          .overrideAuthority("localhost").usePlaintext().build();
      try {
        DRAPluginGrpc.DRAPluginBlockingStub stub = DRAPluginGrpc.newBlockingStub(channel);
        drive(stub, request, callers, calls / 5, new long[calls / 5]);
        long[] nanos = new long[calls];
        long wall = drive(stub, request, callers, calls, nanos);
        return Percentiles.of(nanos, wall);
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
  }

  /** Makes {@code calls} round trips from {@code callers} threads; returns wall time in ns. */
  private static long drive(DRAPluginGrpc.DRAPluginBlockingStub stub,
      NodePrepareResourcesRequest request, int callers, int calls, long[] nanos)
      throws Exception {
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    long start = System.nanoTime();
    Future<?>[] futures = new Future<?>[callers];
    for (int t = 0; t < callers; t++) {
      futures[t] = pool.submit(() -> {
        for (int i = next.getAndIncrement(); i < calls; i = next.getAndIncrement()) {
          long begin = System.nanoTime();
          var response = stub.withDeadlineAfter(45, TimeUnit.SECONDS).nodePrepareResources(request);
          nanos[i] = System.nanoTime() - begin;
          for (Claim claim : request.getClaimsList()) {
            if (!response.getClaimsOrThrow(claim.getUid()).getError().isEmpty()) {
              throw new IllegalStateException("prepare failed: " + response);
            }
          }
        }
        return null;
      });
    }
    for (Future<?> future : futures) {
      future.get();
    }
    long wall = System.nanoTime() - start;
    pool.shutdown();
    return wall;
  }

  private static Percentiles timeGets(KubernetesClient client, int calls) {
    var claims = client.dynamicResourceAllocation().v1().resourceClaims().inNamespace("default")
        .withName("bench");
    for (int i = 0; i < calls / 5; i++) {
      claims.get();
    }
    long[] nanos = new long[calls];
    long start = System.nanoTime();
    for (int i = 0; i < calls; i++) {
      long begin = System.nanoTime();
      claims.get();
      nanos[i] = System.nanoTime() - begin;
    }
    return Percentiles.of(nanos, System.nanoTime() - start);
  }

  /** Latency percentiles in milliseconds and throughput. */
  private record Percentiles(double p50, double p99, double rate) {
    static Percentiles of(long[] nanos, long wallNanos) {
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      return new Percentiles(
          sorted[(int) (sorted.length * 0.50)] / 1e6,
          sorted[(int) Math.min(sorted.length - 1, Math.round(sorted.length * 0.99))] / 1e6,
          sorted.length / (wallNanos / 1e9));
    }

    /** Each figure's median over several runs of one scenario. */
    static Percentiles median(List<Percentiles> runs) {
      return new Percentiles(median(runs, Percentiles::p50), median(runs, Percentiles::p99),
          median(runs, Percentiles::rate));
    }

    private static double median(List<Percentiles> runs, ToDoubleFunction<Percentiles> figure) {
      double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
      return values[values.length / 2];
    }
  }
}
