package io.github.dra4j.benchmarks.lifecycle;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResultBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.resourceclaim.AllocatedDevice;
import io.github.dra4j.resourceclaim.DriverAllocation;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Prepare + unprepare round trips through the claim lifecycle, as the kubelet makes them: {@code
 * NodePrepareResources} then {@code NodeUnprepareResources} over the plugin's Unix socket (one
 * {@link KubeletClient} channel, the kubelet's 45 s deadline per call), to a plugin whose driver is
 * a {@link ClaimLifecycle} around a trivial {@code ClaimDriver<Void>} (one env edit per device,
 * nothing else), with the claim cache on, so the API server lookup is not what is measured, and
 * the background check of gone claims off.
 *
 * <p>Cases: 1 claim per call and 32 claims per call (32 distinct claims, one distinct device each,
 * all allocated to this driver), each with the plugin data directory (the checkpoint) and the CDI
 * directory on a disk file system (under {@code java.io.tmpdir}) and on tmpfs ({@code /dev/shm};
 * skipped if that is not a tmpfs). The file system type is the one {@link FileStore#type()} reads
 * from {@code /proc/mounts}.
 *
 * <p>Printed per case: p50, p90, p99 and max of the prepare call, the unprepare call and the round
 * trip in ms; calls per second (prepare and unprepare calls over the time spent in them); and
 * fsyncs per call, counted: each checkpoint write (the meter {@code
 * dra4j.lifecycle.checkpoint.writes}) is a file and a directory fsync; the claims' CDI specs are
 * written without fsync (the lifecycle restores them from the checkpoint) and are counted apart,
 * as spec files with a new inode after the call. The
 * issue's targets are printed next to the figures; they apply to the p50 of each call on ext4: 1
 * claim under 3 ms, 32 claims under 10 ms.
 *
 * <p>Run: {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.lifecycle.LifecycleBenchmark}. System properties:
 * {@code warmup} (rounds before measuring, default 300), {@code rounds} (measured rounds of every
 * batch size), {@code rounds.1} and {@code rounds.32} (per batch size; defaults 2000 and 300),
 * {@code batches} (default {@code 1,32}), {@code locations} ({@code disk,tmpfs}), {@code disk.dir}
 * (default {@code java.io.tmpdir}), {@code tmpfs.dir} (default {@code /dev/shm}).
 */
public final class LifecycleBenchmark {

  /** The driver name of the benchmark's plugin. */
  static final String DRIVER = "bench.example.com";

  private static final String NODE = "bench-node";
  private static final int FSYNCS_PER_WRITE = 2;

  private LifecycleBenchmark() {}

  /** Prepares each device with one environment variable and keeps no state; undoes nothing. */
  static final class EnvDriver implements ClaimDriver<Void> {
    @Override
    public PreparedClaim<Void> prepare(DriverAllocation allocation, ResourceClaim claim,
        CallContext context) {
      PreparedClaim.Builder<Void> prepared = PreparedClaim.builder(null);
      for (AllocatedDevice device : allocation.devices()) {
        prepared.device(device, edits -> edits.env("BENCH_DEVICE", device.device()));
      }
      return prepared.build();
    }

    @Override
    public void unprepare(DriverAllocation allocation, Void state, CallContext context) {}

    @Override
    public void rollback(DriverAllocation allocation, Optional<Void> state,
        CallContext context) {}
  }

  /**
   * Where a case keeps its checkpoint and CDI specs.
   *
   * @param label what the location stands for ({@code disk}, {@code tmpfs})
   * @param parent the directory under which each case makes its own temporary directory
   * @param fileSystem the file system type, e.g. {@code ext4}
   * @param device what is mounted there, e.g. {@code /dev/vda}
   */
  record Location(String label, Path parent, String fileSystem, String device) {

    /**
     * Looks the file system of a directory up.
     *
     * @param label what the location stands for
     * @param parent an existing directory
     * @return the location
     * @throws IOException if the directory's file store cannot be read
     */
    static Location of(String label, Path parent) throws IOException {
      FileStore store = Files.getFileStore(parent);
      return new Location(label, parent.toAbsolutePath(), store.type(), store.name());
    }
  }

  /**
   * Latency percentiles (nearest rank) in milliseconds.
   *
   * @param p50 median
   * @param p90 90th percentile
   * @param p99 99th percentile
   * @param max slowest
   */
  record Latency(double p50, double p90, double p99, double max) {
    static Latency of(long[] nanos) {
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      return new Latency(rank(sorted, 0.50), rank(sorted, 0.90), rank(sorted, 0.99),
          sorted[sorted.length - 1] / 1e6);
    }

    private static double rank(long[] sorted, double p) {
      return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
  }

  /**
   * What one case measured.
   *
   * @param location where the checkpoint and the CDI specs were
   * @param claimsPerCall claims in each prepare and unprepare call
   * @param rounds measured round trips
   * @param prepare the prepare calls
   * @param unprepare the unprepare calls
   * @param roundTrip prepare plus unprepare
   * @param callsPerSecond prepare and unprepare calls over the time spent in them
   * @param checkpointWritesByPrepare checkpoint writes during the measured prepare calls
   * @param checkpointWritesByUnprepare checkpoint writes during the measured unprepare calls
   * @param specWritesByPrepare CDI spec files written by the measured prepare calls
   * @param specWritesByUnprepare CDI spec files written by the measured unprepare calls
   * @param specRemovalsByUnprepare CDI spec files removed by the measured unprepare calls
   * @param claimGets ResourceClaim GETs the API server answered while measuring
   */
  record CaseResult(Location location, int claimsPerCall, int rounds, Latency prepare,
      Latency unprepare, Latency roundTrip, double callsPerSecond,
      long checkpointWritesByPrepare, long checkpointWritesByUnprepare, long specWritesByPrepare,
      long specWritesByUnprepare, long specRemovalsByUnprepare, long claimGets) {

    /** Fsyncs per prepare call: a file and a directory fsync per checkpoint write. */
    double fsyncsPerPrepare() {
      return (double) FSYNCS_PER_WRITE * checkpointWritesByPrepare / rounds;
    }

    /** Fsyncs per unprepare call. */
    double fsyncsPerUnprepare() {
      return (double) FSYNCS_PER_WRITE * checkpointWritesByUnprepare / rounds;
    }

    /** The target for the p50 of each call on ext4, in ms, printed beside the figure. */
    double targetP50PerCall() {
      return claimsPerCall <= 1 ? 3.0 : 10.0;
    }
  }

  /**
   * Runs every case and prints its figures.
   *
   * @param args none; see the class comment for the system properties
   * @throws Exception on setup failure or a failed call
   */
  public static void main(String[] args) throws Exception {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    int warmUp = Integer.getInteger("warmup", 300);
    List<Integer> batches = Stream.of(System.getProperty("batches", "1,32").split(","))
        .map(String::trim).map(Integer::valueOf).toList();
    List<String> wanted = List.of(System.getProperty("locations", "disk,tmpfs").split(","));
    List<Location> locations = new ArrayList<>();
    System.out.printf(Locale.ROOT, "Claim lifecycle: NodePrepareResources + NodeUnprepareResources"
        + " round trips over the Unix socket, ClaimLifecycle around a ClaimDriver<Void> with one"
        + " env edit per device, claim cache on; Java %s, %d CPUs, %d warm-up rounds per case%n",
        System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), warmUp);
    if (wanted.contains("disk")) {
      Location disk = Location.of("disk", Path.of(System.getProperty("disk.dir",
          System.getProperty("java.io.tmpdir"))));
      locations.add(disk);
      System.out.printf(Locale.ROOT, "disk:  %s is %s on %s (from /proc/mounts)%n",
          disk.parent(), disk.fileSystem(), disk.device());
    }
    if (wanted.contains("tmpfs")) {
      Path shm = Path.of(System.getProperty("tmpfs.dir", "/dev/shm"));
      Location tmpfs = Files.isDirectory(shm) ? Location.of("tmpfs", shm) : null;
      if (tmpfs != null && tmpfs.fileSystem().equals("tmpfs")) {
        locations.add(tmpfs);
        System.out.printf(Locale.ROOT, "tmpfs: %s is %s (from /proc/mounts)%n", tmpfs.parent(),
            tmpfs.fileSystem());
      } else {
        System.out.printf(Locale.ROOT, "tmpfs: %s is %s: no tmpfs, tmpfs cases skipped%n", shm,
            tmpfs == null ? "missing" : tmpfs.fileSystem() + ", not tmpfs");
      }
    }
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start()) {
      for (Location location : locations) {
        for (int claims : batches) {
          int rounds = Integer.getInteger("rounds." + claims,
              Integer.getInteger("rounds", claims <= 1 ? 2_000 : 300));
          System.out.print(format(run(server, location, claims, warmUp, rounds)));
        }
      }
    }
  }

  /**
   * Runs one case: stores the claims, starts a plugin whose checkpoint and CDI directory are in a
   * new temporary directory under the location, makes the warm-up round trips, then the measured
   * ones, and removes the directory again.
   *
   * @param server the API server holding the claims
   * @param location where the checkpoint and the CDI specs go
   * @param claimsPerCall claims per call, each with one device of its own
   * @param warmUp round trips before measuring
   * @param rounds measured round trips, at least 1
   * @return the figures
   * @throws Exception on setup failure, or if a call fails or answers with an error
   */
  static CaseResult run(InMemoryApiServer server, Location location, int claimsPerCall,
      int warmUp, int rounds) throws Exception {
    if (rounds < 1 || claimsPerCall < 1) {
      throw new IllegalArgumentException("rounds and claimsPerCall must be at least 1");
    }
    // Short names: the DRA socket in the data directory must fit the 107 bytes of a socket path.
    Path dir = Files.createTempDirectory(location.parent(), "dra4j-lcb-");
    try {
      Path registry = Files.createDirectories(dir.resolve("registry"));
      Path data = Files.createDirectories(dir.resolve("data"));
      Path cdi = Files.createDirectories(dir.resolve("cdi"));
      // The directory's random name keeps the claims of each case apart.
      List<Claim> claims = storeClaims(server.client(), dir.getFileName().toString(),
          claimsPerCall);
      ClaimLifecycle<Void> lifecycle = ClaimLifecycle.builder(new EnvDriver(), Void.class)
          .cdiDirectory(cdi).goneClaimCheckInterval(Duration.ZERO).build();
      try (KubeletPlugin plugin = KubeletPlugin.builder(lifecycle)
          .driverName(DRIVER).kubeClient(server.client()).nodeName(NODE)
          .registrarDirectory(registry).pluginDataDirectory(data)
          .apiServer(a -> a.withClaimCache(true)).observability(o -> o.withLogCalls(false))
          .shutdown(s -> s.withCloseOnShutdown(false))
          .start();
          KubeletClient kubelet = KubeletClient.create()) {
        // One channel for all calls, as the kubelet keeps one connection per plugin.
        DRAPluginGrpc.DRAPluginBlockingStub stub = DRAPluginGrpc
            .newBlockingStub(kubelet.channel(plugin.draSocket()));
        RoundTrips driver = new RoundTrips(stub, claims, cdi, plugin.meterRegistry()
            .get(MetricNames.CHECKPOINT_WRITES).tag(MetricNames.DRIVER_NAME, DRIVER)
            .functionCounter());
        driver.drive(warmUp);
        driver.reset(rounds);
        server.clearRequests();
        driver.drive(rounds);
        long gets = server.countRequests(r -> r.is(ApiVerb.GET, "resourceclaims"));
        return driver.result(location, gets);
      }
    } finally {
      deleteTree(dir);
    }
  }

  /** Stores claims allocated to this driver, one distinct device each, with their status. */
  private static List<Claim> storeClaims(KubernetesClient client, String prefix, int count) {
    List<Claim> claims = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      DeviceRequestAllocationResult result = new DeviceRequestAllocationResultBuilder()
          .withRequest("dev").withDriver(DRIVER).withPool(NODE).withDevice("dev-" + i).build();
      ResourceClaim claim = new ResourceClaimBuilder()
          .withNewMetadata().withNamespace("default").withName(prefix + "-" + i).endMetadata()
          .withNewSpec().withNewDevices().addNewRequest().withName("dev").withNewExactly()
          .withDeviceClassName(DRIVER).endExactly().endRequest().endDevices().endSpec()
          .withNewStatus().withNewAllocation().withNewDevices().withResults(result).endDevices()
          .endAllocation().endStatus()
          .build();
      ResourceClaim stored = client.resource(claim).create();
      stored.setStatus(claim.getStatus());
      stored = client.resource(stored).updateStatus();
      claims.add(KubeletClient.claim("default", stored.getMetadata().getName(),
          stored.getMetadata().getUid()));
    }
    return claims;
  }

  /**
   * The printed block of one case.
   *
   * @param r the figures
   * @return lines ending in a newline
   */
  static String format(CaseResult r) {
    StringBuilder out = new StringBuilder();
    Location where = r.location();
    out.append(String.format(Locale.ROOT, "%n== %s (%s), %d claim%s per call, %d rounds%n",
        where.label(), where.fileSystem(), r.claimsPerCall(), r.claimsPerCall() == 1 ? "" : "s",
        r.rounds()));
    out.append(String.format(Locale.ROOT, "  %-12s %9s %9s %9s %9s%n", "ms", "p50", "p90", "p99",
        "max"));
    row(out, "prepare", r.prepare());
    row(out, "unprepare", r.unprepare());
    row(out, "round trip", r.roundTrip());
    out.append(String.format(Locale.ROOT, "  calls/s %.0f (prepare and unprepare calls over the"
        + " time in them); claims/s %.0f%n", r.callsPerSecond(),
        r.callsPerSecond() * r.claimsPerCall()));
    out.append(String.format(Locale.ROOT, "  fsyncs per call, counted: prepare %.2f = 2 x %.2f"
        + " checkpoint writes, unprepare %.2f = 2 x %.2f; CDI specs written (no fsync) %.2f per"
        + " prepare, removed %.2f per unprepare%n",
        r.fsyncsPerPrepare(), per(r.checkpointWritesByPrepare(), r), r.fsyncsPerUnprepare(),
        per(r.checkpointWritesByUnprepare(), r), per(r.specWritesByPrepare(), r),
        per(r.specRemovalsByUnprepare(), r)));
    out.append(String.format(Locale.ROOT, "  claim GETs to the API server while measuring: %d%n",
        r.claimGets()));
    boolean ext4 = where.fileSystem().equals("ext4");
    out.append(String.format(Locale.ROOT, "  target (issue): p50 per call < %.0f ms on ext4%s:"
        + " prepare %.3f %s, unprepare %.3f %s (round trip p50 %.3f, not what the target"
        + " bounds)%n", r.targetP50PerCall(), ext4 ? "" : ", shown for comparison only",
        r.prepare().p50(), verdict(r.prepare().p50(), r.targetP50PerCall()),
        r.unprepare().p50(), verdict(r.unprepare().p50(), r.targetP50PerCall()),
        r.roundTrip().p50()));
    return out.toString();
  }

  private static void row(StringBuilder out, String name, Latency l) {
    out.append(String.format(Locale.ROOT, "  %-12s %9.3f %9.3f %9.3f %9.3f%n", name, l.p50(),
        l.p90(), l.p99(), l.max()));
  }

  private static double per(long count, CaseResult r) {
    return (double) count / r.rounds();
  }

  private static String verdict(double p50, double target) {
    return p50 < target ? "met" : "MISSED";
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
