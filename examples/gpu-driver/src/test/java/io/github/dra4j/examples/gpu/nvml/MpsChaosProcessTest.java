package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.examples.gpu.command.GpuDriverMain;
import io.github.dra4j.examples.gpu.mps.MpsStubs;
import io.github.dra4j.examples.gpu.nvml.driverfiles.FakeDriverRoot;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chaos: {@code gpu-driver kubelet-plugin} on the NVML stub, as its own process, killed with
 * SIGKILL while the stub MPS daemon of a claim is starting and again while it is stopping; after
 * each restart no daemon and no MPS directory of the claim is left, and the claim prepares again
 * cleanly.
 */
class MpsChaosProcessTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String DRIVER = "gpu.example.com";
  private static Path compiled;

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private Process process;
  private MpsStubs fake;
  private int starts;

  @BeforeAll
  static void compile(@TempDir Path dir) throws Exception {
    compiled = NvmlStub.compile(dir);
  }

  @AfterEach
  void stop() throws Exception {
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (fake != null) {
      fake.flag("block-start", false);
      fake.flag("block-quit", false);
      fake.killAll();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void killedWhileTheDaemonStartsAndWhileItStopsLeavesNoDaemonAndNoDirectory() throws Exception {
    Path driverRoot = root.resolve("driver-root");
    NvmlStub.install(compiled, driverRoot);
    // the driver's files (libcuda for the compute capability), then the MPS stubs over its tools
    FakeDriverRoot.create(driverRoot, NvmlStub.DRIVER_VERSION);
    fake = MpsStubs.create(driverRoot);
    Files.createDirectories(driverRoot.resolve("dev"));
    for (String node : List.of("nvidiactl", "nvidia0", "nvidia1")) {
      Files.writeString(driverRoot.resolve("dev").resolve(node), "");
    }
    Path plugins = Files.createDirectories(root.resolve("plugins"));
    Path mps = plugins.resolve(DRIVER).resolve("mps");
    server = InMemoryApiServer.builder().build().start();
    KubernetesClient client = server.client();
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
        .build()).create();
    ResourceClaim claim = mpsClaim(client);
    String uid = claim.getMetadata().getUid();
    Claim ref = KubeletClient.claim("default", "mps", uid);

    try (KubeletClient kubelet = KubeletClient.create()) {
      // 1. SIGKILL while the daemon starts: the stub started it and waits before returning
      Path endpoint = startPlugin(kubelet, driverRoot, plugins);
      fake.flag("block-start", true);
      CompletableFuture<?> preparing = CompletableFuture
          .runAsync(() -> quietly(() -> kubelet.prepare(endpoint, ref)));
      await().atMost(WAIT).until(() -> !fake.runningDaemons().isEmpty() || preparing.isDone());
      assertThat(fake.runningDaemons()).as("daemon starting; plugin output:%n%s%n%s%n%s",
          Files.readString(root.resolve("plugin-1.out")), fake.smiLog(), entries(root.resolve(
              "cdi")).stream().map(p -> quietRead(p)).toList())
          .isNotEmpty();
      process.destroyForcibly().waitFor(); // SIGKILL
      fake.flag("block-start", false); // the orphaned launcher returns; its daemon runs on
      assertThat(fake.runningDaemons()).as("the daemon outlived the plugin").hasSize(1);

      Path again = startPlugin(kubelet, driverRoot, plugins);

      await().atMost(WAIT).untilAsserted(
          () -> assertThat(fake.runningDaemons()).as("daemon left after the restart").isEmpty());
      assertThat(entries(mps)).as("MPS directories left after the restart").isEmpty();
      preparing.cancel(true);
      NodePrepareResourceResponse prepared = kubelet.prepare(again, ref).getClaimsOrThrow(uid);
      assertThat(prepared.getError()).isEmpty();
      assertThat(fake.runningDaemons()).hasSize(1);
      assertThat(entries(mps)).hasSize(1);

      // 2. SIGKILL while the daemon stops: the stub's quit hangs
      fake.flag("block-quit", true);
      CompletableFuture<?> unpreparing = CompletableFuture
          .runAsync(() -> quietly(() -> kubelet.unprepare(again, ref)));
      await().atMost(WAIT).until(() -> fake.mpsLog().contains("stdin quit"));
      process.destroyForcibly().waitFor(); // SIGKILL

      Path third = startPlugin(kubelet, driverRoot, plugins); // quit still hangs: it is killed

      await().atMost(WAIT).untilAsserted(
          () -> assertThat(fake.runningDaemons()).as("daemon left after the restart").isEmpty());
      assertThat(entries(mps)).as("MPS directories left after the restart").isEmpty();
      fake.flag("block-quit", false);
      unpreparing.cancel(true);
      assertThat(kubelet.prepare(third, ref).getClaimsOrThrow(uid).getError()).isEmpty();
      assertThat(fake.runningDaemons()).hasSize(1);
      assertThat(kubelet.unprepare(third, ref).getClaimsOrThrow(uid).getError()).isEmpty();
      assertThat(fake.runningDaemons()).isEmpty();
      assertThat(entries(mps)).isEmpty();
    }
  }

  private Path startPlugin(KubeletClient kubelet, Path driverRoot, Path plugins)
      throws Exception {
    Path registry = Files.createDirectories(root.resolve("registry-" + ++starts));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), "-Dlogback.configurationFile="
            + System.getProperty("logback.configurationFile", ""),
        GpuDriverMain.class.getName(), "kubelet-plugin"));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.equals("POD_UID")
        || name.equals("NODE_NAME") || name.startsWith("GPU_") || name.equals("NUM_DEVICES"));
    builder.environment().putAll(Map.of("KUBECONFIG", server.writeKubeconfig(
        root.resolve("kubeconfig")).toString(), "NODE_NAME", "node-1",
        "POD_UID", UUID.randomUUID().toString(),
        "KUBELET_REGISTRAR_DIRECTORY_PATH", registry.toString(),
        "KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString(),
        "CDI_ROOT", Files.createDirectories(root.resolve("cdi")).toString(),
        "HEALTHCHECK_PORT", "0", "METRICS_PORT", "-1", "GPU_BACKEND", "nvml",
        "DRIVER_ROOT_CTR_PATH", driverRoot.toString()));
    Path output = root.resolve("plugin-" + starts + ".out");
    process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    await().atMost(WAIT).until(() -> !KubeletClient.registrationSockets(registry).isEmpty()
        || !process.isAlive());
    assertThat(process.isAlive()).as("started; output:%n%s", Files.readString(output)).isTrue();
    Path registration = KubeletClient.registrationSockets(registry).get(0);
    return Path.of(await().atMost(WAIT).ignoreExceptions()
        .until(() -> kubelet.getInfo(registration).getEndpoint(), e -> !e.isEmpty()));
  }

  private static ResourceClaim mpsClaim(KubernetesClient client) {
    String parameters = "{\"apiVersion\":\"gpu.resource.dra4j.io/v1alpha1\",\"kind\":"
        + "\"GpuConfig\",\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":"
        + "{\"defaultActiveThreadPercentage\":25}}}";
    ResourceClaim created = client.resource(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName("mps").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest()
        .addNewConfig().withRequests("gpu").withNewOpaque().withDriver(DRIVER)
        .withParameters(Serialization.unmarshal(parameters, Map.class)).endOpaque()
        .endConfig().endDevices().endSpec().build()).create();
    created.setStatus(new ResourceClaimBuilder().withNewStatus().withNewAllocation()
        .withNewDevices().addNewResult().withDriver(DRIVER).withRequest("gpu")
        .withPool("node-1").withDevice("gpu-0").endResult()
        .addNewConfig().withSource("FromClaim").withRequests("gpu").withNewOpaque()
        .withDriver(DRIVER).withParameters(Serialization.unmarshal(parameters, Map.class))
        .endOpaque().endConfig().endDevices().endAllocation()
        .endStatus().build().getStatus());
    return client.resource(created).updateStatus();
  }

  private static List<Path> entries(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    }
  }

  private static String quietRead(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }

  private static void quietly(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      // the plugin was killed during the call
    }
  }
}
