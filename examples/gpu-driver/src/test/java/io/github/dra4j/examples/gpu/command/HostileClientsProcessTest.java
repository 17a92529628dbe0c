package io.github.dra4j.examples.gpu.command;

import static io.github.dra4j.testing.kubelet.RawGrpcConnection.heldOnceAccepted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.examples.gpu.chart.ChartJvmOptions;
import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.github.dra4j.testing.kubelet.RawGrpcConnection;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpu-driver kubelet-plugin} as the chart runs it (its JVM options, a 32 MiB heap and as
 * much direct memory), attacked by clients on its own node: idle connections on every socket and
 * port, and device health streams that never read while the GPUs' health keeps changing. The
 * plugin holds no more than its limits, its memory stays bounded, and a kubelet that keeps one
 * connection, as the real one does, has its prepares answered throughout and after. The
 * benchmark {@code HostileClientsBenchmark} runs the same attacks at full size.
 */
class HostileClientsProcessTest {

  /** How long the plugin is given to take every connection of a flood from its accept queue. */
  private static final Duration SETTLE = Duration.ofSeconds(10);

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String WATCH = "/" + ServiceNames.HEALTH_V1 + "/NodeWatchResources";

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private Process process;
  private Path output;
  private Path registration;
  private Path draSocket;
  private int livenessPort;
  private KubeletClient kubelet;
  private String uid;
  private final List<RawGrpcConnection> attackers = new ArrayList<>();

  @BeforeEach
  void startDriver() throws Exception {
    Path registry = Files.createDirectories(root.resolve("plugins_registry"));
    Path plugins = Files.createDirectories(root.resolve("plugins"));
    server = InMemoryApiServer.builder().build().start();
    KubernetesClient client = server.client();
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
        .build()).create();
    output = root.resolve("plugin.out");
    List<String> command = new ArrayList<>(DriverCommands.onTestClassPath());
    command.add("kubelet-plugin");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.equals("POD_UID")
        || name.startsWith("GPU_") || name.equals("NUM_DEVICES"));
    // The chart's options, with the heap committed and touched up front (-Xms at the chart's -Xmx,
    // AlwaysPreTouch): the resident memory the flood test measures is then what the connections
    // cost, not the heap growing from -Xms whenever the collector decides (up to 24 MiB of noise).
    String options = ChartJvmOptions.forThisJvm();
    Matcher maxHeap = Pattern.compile("-Xmx(\\S+)").matcher(options);
    assertThat(maxHeap.find()).as("the chart sets -Xmx: %s", options).isTrue();
    builder.environment().put("JAVA_TOOL_OPTIONS",
        options + " -Xms" + maxHeap.group(1) + " -XX:+AlwaysPreTouch");
    builder.environment().put("KUBECONFIG",
        server.writeKubeconfig(root.resolve("kubeconfig")).toString());
    builder.environment().put("NODE_NAME", "node-1");
    builder.environment().put("KUBELET_REGISTRAR_DIRECTORY_PATH", registry.toString());
    builder.environment().put("KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString());
    builder.environment().put("CDI_ROOT", Files.createDirectories(root.resolve("cdi")).toString());
    builder.environment().put("HEALTHCHECK_PORT", "0");
    builder.environment().put("HEALTHCHECK_ADDRESS", "127.0.0.1"); // the pod's IP in a pod
    builder.environment().put("METRICS_PORT", "-1");
    builder.environment().put("GPU_HEALTH_FILE", root.resolve("health.json").toString());
    process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();

    // The liveness port is logged once every server is up, after the sockets appear.
    Pattern portLine = Pattern.compile("liveness probe on port (\\d+)");
    await().atMost(WAIT).until(() -> (portLine.matcher(read()).find()
        && !KubeletClient.registrationSockets(registry).isEmpty()) || !process.isAlive());
    assertThat(process.isAlive()).as("started; output:%n%s", read()).isTrue();
    registration = KubeletClient.registrationSockets(registry).get(0);
    Matcher port = portLine.matcher(read());
    assertThat(port.find()).as("liveness port logged:%n%s", read()).isTrue();
    livenessPort = Integer.parseInt(port.group(1));
    try (KubeletClient registrar = KubeletClient.create()) { // its connections close with it
      draSocket = Path.of(await().atMost(WAIT).ignoreExceptions()
          .until(() -> registrar.getInfo(registration).getEndpoint(), e -> !e.isEmpty()));
    }
    kubelet = KubeletClient.create();
    uid = allocated(client).getMetadata().getUid();
  }

  @AfterEach
  void stop() throws Exception {
    for (RawGrpcConnection attacker : attackers) {
      attacker.close();
    }
    if (kubelet != null) {
      kubelet.close();
    }
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    server.close();
  }

  @Test
  void idleConnectionsOnEverySocketAreCappedAndTheKubeletIsAnswered() throws Exception {
    ManagedChannel kubeletConnection = kubelet.channel(draSocket);
    try (Prepares prepares = new Prepares(kubeletConnection)) {
      // Warm-up without attackers: C2 compiles the prepare path first, and its compiler arenas
      // and code cache are not what the idle connections cost.
      Thread.sleep(4_000);
      long before = rssKib();
      List<RawGrpcConnection> dra = open(300, () -> RawGrpcConnection.open(draSocket));
      List<RawGrpcConnection> registrar = open(300, () -> RawGrpcConnection.open(registration));
      List<RawGrpcConnection> liveness = open(300, () -> RawGrpcConnection.open(
          new InetSocketAddress(InetAddress.getLoopbackAddress(), livenessPort)));

      System.out.printf("idle flood: resident memory %d KiB before, %d KiB with 900 connections"
          + " attempted%n", before, rssKib());
      assertThat(heldOnceAccepted(dra, 15, SETTLE))
          .as("DRA socket: 16 places, one the kubelet's")
          .isEqualTo(15);
      assertThat(heldOnceAccepted(registrar, 4, SETTLE)).as("registration socket").isBetween(1, 4);
      assertThat(heldOnceAccepted(liveness, 8, SETTLE)).as("liveness port").isEqualTo(8);
      assertThat(process.isAlive()).as("alive; output:%n%s", read()).isTrue();
      assertThat(rssKib() - before).as("resident memory grew (KiB)").isLessThan(16 * 1024);
      assertThat(prepares.stop()).as("prepares during the flood").isEmpty();
    }
    for (RawGrpcConnection attacker : attackers) {
      attacker.close();
    }
    await().atMost(Duration.ofSeconds(15)).ignoreExceptions().untilAsserted(() -> {
      assertThat(kubelet.getInfo(registration).getName()).isEqualTo("gpu.example.com");
      assertThat(probe()).isEqualTo(ServingStatus.SERVING);
    });
    assertThat(prepare(kubelet.channel(draSocket))).as("a new connection after").isNull();
    assertThat(outOfMemory()).isEmpty();
  }

  @Test
  void healthStreamsThatNeverReadCannotExhaustMemoryWhileHealthChanges() throws Exception {
    ManagedChannel kubeletConnection = kubelet.channel(draSocket);
    Supplier<Optional<NodeWatchResourcesResponse>> latest = kubelet.watchHealth(kubeletConnection);
    writeHealth(0);
    await().atMost(WAIT).until(() -> latest.get().isPresent()
        && latest.get().orElseThrow().getDevices(0).getMessage().contains("flip 0"));
    try (Prepares prepares = new Prepares(kubeletConnection)) {
      // Warm-up without attackers: the chart's flags run C2, whose compiler arenas and code
      // cache grow while prepares and health changes are new; measured from here, the growth
      // is what the stalled streams cost.
      for (int flip = 1; flip <= 4; flip++) {
        writeHealth(flip);
        Thread.sleep(1_100); // the driver reads its health file every second
      }
      long before = rssKib();
      int streams = 0;
      for (int connection = 0; connection < 20; connection++) {
        try {
          RawGrpcConnection attacker = RawGrpcConnection.open(draSocket).handshake();
          attackers.add(attacker);
          // 50 each, or as many as the plugin allows a connection: more would end it
          for (int i = 0; i < Math.min(50, attacker.maxConcurrentStreams()); i++) {
            attacker.sendMessage(attacker.startCall(WATCH), new byte[0], true);
            streams++;
          }
        } catch (IOException refused) {
          // closed by the plugin: over its connections
        }
      }
      assertThat(streams).as("streams attempted").isGreaterThan(0);
      for (int flip = 5; flip <= 8; flip++) {
        writeHealth(flip);
        Thread.sleep(1_100);
      }
      long middle = rssKib();
      for (int flip = 9; flip <= 12; flip++) {
        writeHealth(flip);
        Thread.sleep(1_100);
      }
      long after = rssKib();

      System.out.printf("stalled health streams: %d attempted, resident memory %d KiB before,"
          + " %d KiB after 4 changes, %d KiB after 8%n", streams, before, middle, after);
      assertThat(process.isAlive()).as("alive; output:%n%s", read()).isTrue();
      assertThat(outOfMemory()).isEmpty();
      // A snapshot queued per stream and change would add about 7 MiB a change (750 streams, 8
      // GPUs' messages of 1,000 characters): the last 4 changes must add next to nothing. The
      // whole growth includes the streams' own bounded state and C2 compiling the new paths.
      assertThat(after - middle).as("resident memory grew over the last 4 changes (KiB)")
          .isLessThan(8 * 1024);
      assertThat(after - before).as("resident memory grew (KiB)").isLessThan(32 * 1024);
      assertThat(prepares.stop()).as("prepares while the streams stalled").isEmpty();
      await().atMost(Duration.ofSeconds(15))
          .until(() -> latest.get().orElseThrow().getDevices(0).getMessage().contains("flip 12"));
    }
  }

  /** Writes every GPU unhealthy with a message of about 1,000 characters naming the flip. */
  private void writeHealth(int flip) throws IOException {
    StringBuilder json = new StringBuilder("{");
    for (int gpu = 0; gpu < 8; gpu++) {
      json.append(gpu == 0 ? "" : ",").append("\"gpu-").append(gpu)
          .append("\": {\"key\": \"xid\", \"value\": \"79\", \"message\": \"flip ").append(flip)
          .append(' ').append("x".repeat(1000)).append("\"}");
    }
    Path file = root.resolve("health.json");
    Path next = root.resolve("health.json.tmp");
    Files.writeString(next, json.append('}'));
    Files.move(next, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private interface Opener {
    RawGrpcConnection open() throws IOException;
  }

  private List<RawGrpcConnection> open(int count, Opener opener) throws IOException {
    List<RawGrpcConnection> opened = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      opened.add(opener.open());
    }
    attackers.addAll(opened);
    return opened;
  }

  /** A prepare over a connection; null when answered without error, else what went wrong. */
  private String prepare(ManagedChannel connection) {
    try {
      String error = DRAPluginGrpc.newBlockingStub(connection)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
              .addClaims(KubeletClient.claim("default", "gpu", uid)).build())
          .getClaimsOrThrow(uid).getError();
      return error.isEmpty() ? null : error;
    } catch (RuntimeException e) {
      return e.toString();
    }
  }

  /** Prepares every 100 ms on a thread of their own, as the kubelet's calls keep coming. */
  private final class Prepares implements AutoCloseable {
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    Prepares(ManagedChannel connection) {
      thread = new Thread(() -> {
        while (running.get()) {
          String failure = prepare(connection);
          if (failure != null) {
            failures.add(failure);
          }
          try {
            Thread.sleep(100);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "kubelet-prepares");
      thread.start();
    }

    List<String> stop() throws InterruptedException {
      running.set(false);
      thread.join(20_000);
      return failures;
    }

    @Override
    public void close() throws InterruptedException {
      stop();
    }
  }

  private ServingStatus probe() {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", livenessPort)
        .usePlaintext().build();
    try {
      return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .check(HealthCheckRequest.newBuilder().setService(KubeletPlugin.LIVENESS_SERVICE)
              .build())
          .getStatus();
    } finally {
      channel.shutdownNow();
    }
  }

  private long rssKib() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()),
        "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    throw new IOException("no VmRSS for process " + process.pid());
  }

  private static ResourceClaim allocated(KubernetesClient client) {
    ResourceClaim created = client.resource(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName("gpu").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest().endDevices()
        .endSpec().build()).create();
    created.setStatus(new ResourceClaimBuilder().withNewStatus().withNewAllocation()
        .withNewDevices().addNewResult().withDriver("gpu.example.com").withRequest("gpu")
        .withPool("node-1").withDevice("gpu-1").endResult().endDevices().endAllocation()
        .endStatus().build().getStatus());
    return client.resource(created).updateStatus();
  }

  /** The driver's lines about running out of memory (heap, or Netty's direct memory). */
  private List<String> outOfMemory() throws IOException {
    return read().lines().filter(line -> !line.startsWith("Picked up JAVA_TOOL_OPTIONS"))
        .filter(line -> line.contains("OutOfMemoryError") || line.contains("OutOfDirectMemory"))
        .toList();
  }

  private String read() throws IOException {
    return Files.exists(output) ? Files.readString(output) : "";
  }
}
