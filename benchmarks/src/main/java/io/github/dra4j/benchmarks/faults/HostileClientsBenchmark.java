package io.github.dra4j.benchmarks.faults;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.benchmarks.gpudriver.GpuDriverBenchmark;
import io.github.dra4j.benchmarks.kubeletplugin.ApiServerAccess;
import io.github.dra4j.benchmarks.kubeletplugin.BenchmarkClaims;
import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.github.dra4j.testing.kubelet.RawGrpcConnection;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The reference GPU driver's jar run as the chart runs it (its JVM options: a 32 MiB heap, and
 * as much direct memory), attacked by clients on its node, one attack per fresh driver:
 *
 * <ul>
 *   <li>idle connections, {@code connections} of them (default 4,000) at once, on the liveness
 *       port, the DRA socket and the registration socket in turn, held for {@code hold} seconds
 *       (default 15);
 *   <li>device health streams that never read, {@code streams} (default 1,000) on {@code
 *       streamConnections} connections (default 20), while every GPU's health changes each
 *       second for {@code healthSeconds} (default 45: the plugin drops a stream that leaves an
 *       update unread for 30 s).
 * </ul>
 *
 * <p>For each it prints how many connections the driver held, the kubelet's prepares during the
 * attack (one connection opened before it, a prepare every 100 ms: answered, failed, latency),
 * resident memory before, at its peak and after, the plugin's own count of what it refused (its
 * metrics), whether a new connection and the liveness probe are answered after the attack, and
 * any OutOfMemoryError in the driver's log. Run after {@code ./mvnw -B -q install -DskipTests}:
 * {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.faults.HostileClientsBenchmark}, with {@code
 * java.bin} for another JVM (the chart's options are for a JDK 25; on an older one the options it
 * does not know are ignored), {@code jvm.options} and {@code gpu.driver.jar} as {@code
 * GpuDriverBenchmark} takes them.
 */
public final class HostileClientsBenchmark {

  private static final String WATCH = "/" + ServiceNames.HEALTH_V1 + "/NodeWatchResources";

  private HostileClientsBenchmark() {}

  /**
   * Runs the attacks and prints what they did.
   *
   * @param args unused
   * @throws Exception on failure
   */
  public static void main(String[] args) throws Exception {
    Path jar = GpuDriverBenchmark.driverJar();
    String java = System.getProperty("java.bin",
        Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> options = new ArrayList<>(List.of("-XX:+IgnoreUnrecognizedVMOptions"));
    options.addAll(GpuDriverBenchmark.jvmOptions());
    int connections = Integer.getInteger("connections", 4000);
    int hold = Integer.getInteger("hold", 15);
    int streams = Integer.getInteger("streams", 1000);
    int streamConnections = Integer.getInteger("streamConnections", 20);
    int healthSeconds = Integer.getInteger("healthSeconds", 45);
    System.out.printf("GPU driver %s, JVM %s, options %s%n", jar, java, String.join(" ", options));
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start()) {
      KubernetesClient client = server.client();
      client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node").endMetadata()
          .build()).create();
      String uid = BenchmarkClaims.store(client, "gpu.example.com", "bench").getMetadata()
          .getUid();
      Path root = Files.createTempDirectory("atk");
      ApiServerAccess access = ApiServerAccess.kubeconfig(
          server.writeKubeconfig(root.resolve("kubeconfig")));
      Scenario scenario = new Scenario(java, options, jar, access, root, uid);
      scenario.idle("liveness port", connections, hold,
          d -> RawGrpcConnection.open(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), d.livenessPort)));
      scenario.idle("DRA socket", connections, hold, d -> RawGrpcConnection.open(d.draSocket));
      scenario.idle("registration socket", connections, hold,
          d -> RawGrpcConnection.open(d.registrationSocket));
      scenario.stalledHealth(streams, streamConnections, healthSeconds);
    }
  }

  /** Opens one attacking connection to a driver. */
  private interface Opener {
    RawGrpcConnection open(AttackedDriver driver) throws IOException;
  }

  /** Runs each attack on a fresh driver and prints it. */
  private record Scenario(String java, List<String> options, Path jar, ApiServerAccess access,
      Path root, String uid) {

    private AttackedDriver fresh(String name) throws Exception {
      return AttackedDriver.start(java, options, jar, access,
          Files.createDirectories(root.resolve(name.replaceAll("\\W", ""))));
    }

    void idle(String target, int count, int holdSeconds, Opener opener) throws Exception {
      try (AttackedDriver driver = fresh(target); KubeletClient kubelet = KubeletClient.create()) {
        ManagedChannel connection = kubelet.channel(driver.draSocket);
        KubeletLoad.Summary warm = warmUp(driver, connection);
        long before = driver.rssKib();
        KubeletLoad load = new KubeletLoad(connection, uid, driver::rssKib);
        List<RawGrpcConnection> attackers = new ArrayList<>();
        int refusedAtConnect = 0;
        long begin = System.nanoTime();
        for (int i = 0; i < count; i++) {
          try {
            attackers.add(opener.open(driver));
          } catch (IOException e) {
            refusedAtConnect++;
          }
        }
        double openSeconds = (System.nanoTime() - begin) / 1e9;
        Thread.sleep(3000); // the plugin has accepted (and closed) every one by then
        int heldAfterThreeSeconds = RawGrpcConnection.stillOpen(attackers, Duration.ofMillis(5));
        Thread.sleep(Math.max(0, holdSeconds - 3) * 1000L);
        int heldAtEnd = RawGrpcConnection.stillOpen(attackers, Duration.ofMillis(5));
        KubeletLoad.Summary during = load.stop();
        long withFlood = driver.rssKib();
        var meters = driver.meters();
        for (RawGrpcConnection attacker : attackers) {
          attacker.close();
        }
        Thread.sleep(500);
        String afterNew = prepareOnNewConnection(kubelet, driver);
        String probe = driver.probe();
        System.out.printf("%n%d idle connections on the %s (opened in %.1f s, %d refused at"
            + " connect):%n  held by the driver after 3 s: %d, after %d s: %d%n  kubelet during"
            + " the flood: %s%n  resident memory: %.1f MiB before, peak %.1f MiB, %.1f MiB with"
            + " the flood held%n  the plugin's meters: %s%n  after the flood: prepare on a new"
            + " connection %s, liveness probe %s, driver %s, out-of-memory lines %s%n",
            count, target, openSeconds, refusedAtConnect, heldAfterThreeSeconds, holdSeconds,
            heldAtEnd, during, before / 1024.0, Math.max(during.peakRssKib(), withFlood) / 1024.0,
            withFlood / 1024.0, meters, afterNew, probe, driver.alive() ? "alive" : "ended",
            driver.outOfMemory());
        System.out.printf("  (warm-up before the flood: %s)%n", warm);
      }
    }

    void stalledHealth(int streams, int connections, int seconds) throws Exception {
      try (AttackedDriver driver = fresh("health");
          KubeletClient kubelet = KubeletClient.create()) {
        ManagedChannel connection = kubelet.channel(driver.draSocket);
        Supplier<Optional<NodeWatchResourcesResponse>> latest = kubelet.watchHealth(connection);
        driver.writeHealth(0);
        warmUp(driver, connection);
        long before = driver.rssKib();
        KubeletLoad load = new KubeletLoad(connection, uid, driver::rssKib);
        List<RawGrpcConnection> attackers = new ArrayList<>();
        int opened = 0;
        int refusedConnections = 0;
        for (int c = 0; c < connections; c++) {
          try {
            RawGrpcConnection attacker = RawGrpcConnection.open(driver.draSocket).handshake();
            attackers.add(attacker);
            // As many as asked, or as the plugin allows a connection: more would end it.
            for (int i = 0; i < Math.min(streams / connections,
                attacker.maxConcurrentStreams()); i++) {
              attacker.sendMessage(attacker.startCall(WATCH), new byte[0], true);
              opened++;
            }
          } catch (IOException e) {
            refusedConnections++;
          }
        }
        for (int change = 1; change <= seconds; change++) {
          driver.writeHealth(change);
          Thread.sleep(1000);
        }
        KubeletLoad.Summary during = load.stop();
        long withStreams = driver.rssKib();
        String seen = latest.get().map(r -> r.getDevices(0).getMessage().replaceAll(" x+$", ""))
            .orElse("nothing");
        var meters = driver.meters();
        for (RawGrpcConnection attacker : attackers) {
          attacker.close();
        }
        Thread.sleep(500);
        System.out.printf("%n%d health streams that never read asked for, on %d connections (%d"
            + " refused by the driver), %d opened, while health changed every second for %d s:%n"
            + "  kubelet during the attack: %s%n  the kubelet's own health stream last saw:"
            + " \"%s\" (the last change was %d)%n  resident memory: %.1f MiB before, peak %.1f"
            + " MiB, %.1f MiB at the end%n  the plugin's meters: %s%n  after: prepare on a new"
            + " connection %s, liveness probe %s, driver %s, out-of-memory lines %s%n",
            streams, connections, refusedConnections, opened, seconds, during, seen, seconds,
            before / 1024.0, Math.max(during.peakRssKib(), withStreams) / 1024.0,
            withStreams / 1024.0, meters, prepareOnNewConnection(kubelet, driver),
            driver.probe(), driver.alive() ? "alive" : "ended", driver.outOfMemory());
      }
    }

    /** A few prepares first, so that the classes and code of a prepare are loaded. */
    private KubeletLoad.Summary warmUp(AttackedDriver driver, ManagedChannel connection)
        throws InterruptedException {
      KubeletLoad warm = new KubeletLoad(connection, uid, driver::rssKib);
      Thread.sleep(2000);
      return warm.stop();
    }

    private String prepareOnNewConnection(KubeletClient kubelet, AttackedDriver driver) {
      try {
        String error = kubelet.prepare(driver.draSocket, KubeletClient.claim("default", "bench",
            uid)).getClaimsOrThrow(uid).getError();
        return error.isEmpty() ? "answered" : "failed: " + error;
      } catch (RuntimeException e) {
        return "failed: " + e.getMessage();
      }
    }
  }
}
