package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.cdi.registry.CdiRegistry;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpu-driver kubelet-plugin} as its own process, configured only by the environment a
 * DaemonSet sets: it registers under its pod UID, publishes its GPUs, prepares a claim over the
 * kubelet's gRPC with the node-wide common device, and ends cleanly on a real SIGTERM.
 */
class KubeletPluginProcessTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private Process process;

  @AfterEach
  void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
  }

  /**
   * The command that runs the driver's command line: here its main class on the test class path;
   * {@code ShadedKubeletPluginIT} runs the jar the image ships instead.
   */
  List<String> driverCommand() {
    return DriverCommands.onTestClassPath();
  }

  private Process start(Path output, String... environment) throws IOException {
    List<String> command = new ArrayList<>(driverCommand());
    command.add("kubelet-plugin");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.equals("POD_UID")
        || name.equals("NODE_NAME") || name.startsWith("GPU_") || name.equals("NUM_DEVICES"));
    for (int i = 0; i < environment.length; i += 2) {
      builder.environment().put(environment[i], environment[i + 1]);
    }
    return builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
  }

  @Test
  void runsFromTheEnvironmentPreparesAClaimAndEndsCleanlyOnSigterm() throws Exception {
    Path registry = Files.createDirectories(root.resolve("plugins_registry"));
    Path plugins = Files.createDirectories(root.resolve("plugins"));
    Path cdi = Files.createDirectories(root.resolve("cdi"));
    server = InMemoryApiServer.builder().build().start();
    KubernetesClient client = server.client();
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
        .build()).create();
    String podUid = UUID.randomUUID().toString();
    Path output = root.resolve("plugin.out");
    process = start(output, "KUBECONFIG", server.writeKubeconfig(root.resolve("kubeconfig"))
        .toString(), "NODE_NAME", "node-1", "POD_UID", podUid,
        "KUBELET_REGISTRAR_DIRECTORY_PATH", registry.toString(),
        "KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString(), "CDI_ROOT", cdi.toString(),
        "HEALTHCHECK_PORT", "0", "METRICS_PORT", "-1", "NUM_DEVICES", "3",
        "GPU_PARTITIONS", "2");

    // Named by the pod UID (shortened when the path would pass the socket length limit).
    await().atMost(WAIT).until(() -> !KubeletClient.registrationSockets(registry).isEmpty()
        || !process.isAlive());
    assertThat(process.isAlive()).as("started; output:%n%s", read(output)).isTrue();
    Path registration = KubeletClient.registrationSockets(registry).get(0);
    await().atMost(WAIT).alias("9 devices published").until(() -> client
        .dynamicResourceAllocation().v1().resourcesSlices().list().getItems().stream()
        .mapToInt(s -> s.getSpec().getDevices() == null ? 0 : s.getSpec().getDevices().size())
        .sum() == 9 || !process.isAlive());
    assertThat(process.isAlive()).as("published; output:%n%s", read(output)).isTrue();
    // The chart's startup and liveness probes: gRPC health, service "liveness", on this port.
    Matcher liveness = Pattern.compile("liveness probe on port (\\d+)").matcher(read(output));
    assertThat(liveness.find()).as("liveness port logged; output:%n%s", read(output)).isTrue();
    ManagedChannel probe = NettyChannelBuilder.forAddress("127.0.0.1",
        Integer.parseInt(liveness.group(1))).usePlaintext().build();
    try {
      assertThat(HealthGrpc.newBlockingStub(probe).withDeadlineAfter(30, TimeUnit.SECONDS)
          .check(HealthCheckRequest.newBuilder().setService(KubeletPlugin.LIVENESS_SERVICE)
              .build())
          .getStatus()).isEqualTo(ServingStatus.SERVING);
    } finally {
      probe.shutdownNow();
    }
    try (KubeletClient kubelet = KubeletClient.create()) {
      String endpoint = await().atMost(WAIT).ignoreExceptions()
          .until(() -> kubelet.getInfo(registration).getEndpoint(), e -> !e.isEmpty());
      ResourceClaim claim = allocated(client, "gpu-2-partition-1");
      String uid = claim.getMetadata().getUid();
      NodePrepareResourceResponse answer = kubelet.prepare(Path.of(endpoint),
          KubeletClient.claim("default", "part", uid)).getClaimsOrThrow(uid);

      assertThat(answer.getError()).isEmpty();
      assertThat(answer.getDevices(0).getCdiDeviceIdsList()).containsExactly(
          "k8s.gpu.example.com/gpu=common", "k8s.gpu.example.com/gpu=" + uid
              + "-gpu-2-partition-1");
      List<String> env = CdiRegistry.load(List.of(cdi))
          .resolve(answer.getDevices(0).getCdiDeviceIdsList()).edits().env();
      assertThat(env).contains("KUBERNETES_NODE_NAME=node-1", "GPU_DEVICE_2_PARTITION_1="
          + "gpu-2-partition-1", "GPU_DEVICE_2_PARTITION_1_TYPE=partition");
    }

    process.destroy(); // SIGTERM

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    // 143: the JVM's status after SIGTERM, once the shutdown hooks have run
    assertThat(process.exitValue()).as("output:%n%s", read(output)).isEqualTo(143);
    assertThat(registration).doesNotExist();
    assertThat(read(output)).contains("DRA socket " + plugins.resolve("gpu.example.com")
        .resolve("dra-" + podUid + ".sock"));
    assertThat(read(output)).contains("gpu.example.com serves 9 devices on node node-1",
        "gpu.example.com stopped");
  }

  @Test
  void aMalformedVariableStopsTheStartNamingItAndItsValue() throws Exception {
    Path output = root.resolve("bad.out");
    process = start(output, "NODE_NAME", "node-1", "NUM_DEVICES", "eight",
        "GPU_ALLOW_MULTIPLE_ALLOCATIONS", "yes");

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isEqualTo(2);
    assertThat(read(output)).contains("NUM_DEVICES=\"eight\": want a whole number from 0 to 128",
        "GPU_ALLOW_MULTIPLE_ALLOCATIONS=\"yes\": want true or false");
  }

  private static ResourceClaim allocated(KubernetesClient client, String device) {
    ResourceClaim created = client.resource(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName("part").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("partition.gpu.example.com").endExactly().endRequest().endDevices()
        .endSpec().build()).create();
    created.setStatus(new ResourceClaimBuilder().withNewStatus().withNewAllocation()
        .withNewDevices().addNewResult().withDriver("gpu.example.com").withRequest("gpu")
        .withPool("node-1").withDevice(device).endResult().endDevices().endAllocation()
        .endStatus().build().getStatus());
    return client.resource(created).updateStatus();
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
