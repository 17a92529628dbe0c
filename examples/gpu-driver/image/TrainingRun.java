/*
 * The training run of the GPU driver's image, and its check: the driver's kubelet plugin started
 * as its DaemonSet starts it (the command line given after the arguments, on the image's runtime
 * and jar, configured only by environment variables), against an in-memory API server and a
 * kubelet's gRPC client, both in this JVM. It registers the plugin as the kubelet does, waits for
 * the published devices, prepares and unprepares three claims (a whole GPU, a time-sliced GPU
 * with opaque configuration, a partition) a number of times, asks the liveness probe and scrapes
 * the metrics endpoint, then stops the plugin with SIGTERM and wants it to exit with 143.
 *
 * A source-file program (JEP 330), run by build-runtime.sh on a full JDK with the demo jar
 * (examples/gpu-driver-demo) as class path (that jar has the in-memory API server and the kubelet
 * client; the driver's jar, which the image ships, has neither, and the driver's class path must
 * be exactly the image's for the archive to be used):
 *
 *   java -cp gpu-driver-demo.jar TrainingRun.java <work dir> <cycles> <driver command...>
 *
 * The API server is plain HTTP found through in-cluster style variables (a pod uses HTTPS; TLS
 * classes are then loaded from the runtime's modules as usual).
 */

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/** The training run; see the file's comment. */
public final class TrainingRun {

  private static final String DRIVER = "gpu.example.com";
  private static final String NODE = "node";
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(120);

  private TrainingRun() {}

  /**
   * Runs the driver through its paths and stops it.
   *
   * @param args the work directory, the number of cycles, then the driver's command line
   * @throws Exception on any failure: a failed call, a driver that does not start or stop
   */
  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: TrainingRun <work dir> <cycles> <driver command...>");
      System.exit(2);
    }
    Path work = Files.createDirectories(Path.of(args[0]));
    int cycles = Integer.parseInt(args[1]);
    List<String> command = Arrays.asList(args).subList(2, args.length);
    Path registry = Files.createDirectories(work.resolve("reg"));
    Path plugins = Files.createDirectories(work.resolve("plg"));
    Path cdi = Files.createDirectories(work.resolve("cdi"));
    Path log = work.resolve("driver.log");
    int healthPort = freePort();
    int metricsPort = freePort();
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start();
        KubeletClient kubelet = KubeletClient.create()) {
      KubernetesClient client = server.client();
      client.nodes().resource(new NodeBuilder().withNewMetadata().withName(NODE).endMetadata()
          .build()).create();
      ProcessBuilder builder = new ProcessBuilder(command);
      Map<String, String> env = builder.environment();
      env.remove("JAVA_TOOL_OPTIONS"); // the command line holds every option
      env.remove("JDK_JAVA_OPTIONS");
      env.putAll(Map.of("KUBERNETES_MASTER", server.url(), "KUBERNETES_AUTH_TOKEN", "training",
          "KUBERNETES_AUTH_TRYKUBECONFIG", "false", "KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false"));
      env.put("NODE_NAME", NODE);
      env.put("POD_UID", UUID.randomUUID().toString());
      env.put("KUBELET_REGISTRAR_DIRECTORY_PATH", registry.toString());
      env.put("KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString());
      env.put("CDI_ROOT", cdi.toString());
      env.put("NUM_DEVICES", "4");
      env.put("GPU_PARTITIONS", "2");
      env.put("HEALTHCHECK_PORT", Integer.toString(healthPort));
      env.put("METRICS_PORT", Integer.toString(metricsPort));
      env.put("MALLOC_ARENA_MAX", "2");
      Process driver = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
      try {
        exercise(client, kubelet, driver, registry, healthPort, metricsPort, cycles, log);
      } finally {
        driver.destroy(); // SIGTERM, as the kubelet stops a container
        if (!driver.waitFor(300, TimeUnit.SECONDS)) {
          driver.destroyForcibly();
          fail("the driver did not exit within 300 s of SIGTERM", log);
        }
      }
      if (driver.exitValue() != 143) {
        fail("the driver exited with " + driver.exitValue() + ", not 143 (SIGTERM)", log);
      }
      System.out.printf("training run: %d cycles of 3 claims prepared and unprepared, liveness"
          + " and metrics asked, driver exited with 143 after SIGTERM%n", cycles);
    }
  }

  private static void exercise(KubernetesClient client, KubeletClient kubelet, Process driver,
      Path registry, int healthPort, int metricsPort, int cycles, Path log) throws Exception {
    long deadline = System.nanoTime() + WAIT_NANOS;
    while (KubeletClient.registrationSockets(registry).isEmpty()) {
      alive(driver, deadline, log);
      Thread.sleep(5);
    }
    Path registration = KubeletClient.registrationSockets(registry).get(0);
    String endpoint = null;
    while (endpoint == null) {
      alive(driver, deadline, log);
      try {
        endpoint = kubelet.getInfo(registration).getEndpoint();
      } catch (RuntimeException notYet) {
        Thread.sleep(20);
      }
    }
    kubelet.notifyRegistrationStatus(registration, true, "");
    while (client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .mapToInt(s -> s.getSpec().getDevices() == null ? 0 : s.getSpec().getDevices().size())
        .sum() == 0) {
      alive(driver, deadline, log);
      Thread.sleep(20);
    }
    List<Claim> claims = List.of(
        claim(client, "whole", "gpu.example.com", "gpu-0", null),
        claim(client, "shared", "gpu.example.com", "gpu-1", Map.of(
            "apiVersion", "gpu.resource.dra4j.io/v1alpha1", "kind", "GpuConfig",
            "sharing", Map.of("strategy", "TimeSlicing",
                "timeSlicingConfig", Map.of("interval", "Long")))),
        claim(client, "part", "partition.gpu.example.com", "gpu-2-partition-1", null));
    Path socket = Path.of(endpoint);
    for (int i = 0; i < cycles; i++) {
      // all three in one call, as the kubelet sends a pod's claims, and one at a time
      check(kubelet.prepare(socket, claims.toArray(Claim[]::new)), log);
      kubelet.unprepare(socket, claims.toArray(Claim[]::new));
      for (Claim claim : claims) {
        check(kubelet.prepare(socket, claim), log);
        kubelet.unprepare(socket, claim);
      }
    }
    ManagedChannel probe = NettyChannelBuilder.forAddress("127.0.0.1", healthPort)
        .usePlaintext().build();
    try {
      ServingStatus status = HealthGrpc.newBlockingStub(probe)
          .withDeadlineAfter(30, TimeUnit.SECONDS).check(HealthCheckRequest.newBuilder()
              .setService("liveness").build()).getStatus();
      if (status != ServingStatus.SERVING) {
        fail("liveness: " + status, log);
      }
    } finally {
      probe.shutdownNow();
    }
    HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    if (metrics.statusCode() != 200 || !metrics.body().contains("dra4j_")) {
      fail("metrics: HTTP " + metrics.statusCode(), log);
    }
  }

  /** A claim allocated to one device of this node, as the scheduler leaves it. */
  private static Claim claim(KubernetesClient client, String name, String deviceClass,
      String device, Map<String, Object> parameters) {
    ResourceClaimBuilder builder = new ResourceClaimBuilder().withNewMetadata()
        .withNamespace("default").withName(name).endMetadata().withNewSpec().withNewDevices()
        .addNewRequest().withName("gpu").withNewExactly().withDeviceClassName(deviceClass)
        .endExactly().endRequest().endDevices().endSpec();
    ResourceClaim created = client.resource(builder.build()).create();
    var devices = new ResourceClaimBuilder().withNewStatus().withNewAllocation()
        .withNewDevices().addNewResult().withDriver(DRIVER).withRequest("gpu").withPool(NODE)
        .withDevice(device).endResult();
    if (parameters != null) {
      devices = devices.addNewConfig().withSource("FromClaim").withRequests("gpu")
          .withNewOpaque().withDriver(DRIVER).withParameters(parameters).endOpaque().endConfig();
    }
    created.setStatus(devices.endDevices().endAllocation().endStatus().build().getStatus());
    ResourceClaim allocated = client.resource(created).updateStatus();
    return KubeletClient.claim("default", name, allocated.getMetadata().getUid());
  }

  private static void check(NodePrepareResourcesResponse response, Path log) throws IOException {
    for (var answer : response.getClaimsMap().entrySet()) {
      if (!answer.getValue().getError().isEmpty() || answer.getValue().getDevicesCount() == 0) {
        fail("prepare of claim " + answer.getKey() + ": " + answer.getValue(), log);
      }
    }
  }

  private static void alive(Process driver, long deadline, Path log) throws IOException {
    if (!driver.isAlive() || System.nanoTime() > deadline) {
      fail(driver.isAlive() ? "the driver did not serve within 120 s"
          : "the driver exited with " + driver.exitValue(), log);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void fail(String what, Path log) throws IOException {
    throw new IllegalStateException("training run: " + what + "; the driver's output:\n"
        + (Files.exists(log) ? Files.readString(log) : "(none)"));
  }
}
