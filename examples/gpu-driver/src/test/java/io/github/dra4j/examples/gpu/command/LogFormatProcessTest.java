package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code gpu-driver kubelet-plugin} as the DaemonSet runs it, with the logging it ships
 * (dra4j-logging, no logback file): {@code LOG_FORMAT=json} makes every line on standard error a
 * Kubernetes JSON object and {@code LOG_FORMAT=text} a klog-like line; the first line is the
 * driver's version, and a prepare's line names the claim, its request ID and the devices.
 */
class LogFormatProcessTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Pattern TEXT_LINE = Pattern
      .compile("[EWI]\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{6} [A-Za-z0-9$]+] \".*");

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
   * The driver's command line without a logback file, so that dra4j-logging sets logging up: here
   * its main class on the test class path; {@code ShadedLogFormatIT} runs the image's jar, which
   * must hold dra4j-logging and logback.
   */
  List<String> driverCommand() {
    // The flag the jar's manifest sets (Enable-Native-Access), which -cp does not read: without
    // it, JDK 22 and later print a warning about Netty's native library on stderr.
    return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        GpuDriverMain.class.getName());
  }

  /** Runs the plugin, prepares one claim, stops it with SIGTERM; returns its stderr lines. */
  private List<String> prepareOnce(String format, String[] claimUid) throws Exception {
    Path registry = Files.createDirectories(root.resolve("plugins_registry"));
    Path plugins = Files.createDirectories(root.resolve("plugins"));
    Path cdi = Files.createDirectories(root.resolve("cdi"));
    server = InMemoryApiServer.builder().build().start();
    KubernetesClient client = server.client();
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
        .build()).create();
    List<String> command = new ArrayList<>(driverCommand());
    command.add("kubelet-plugin");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.startsWith("GPU_")
        || name.startsWith("LOG_") || name.equals("NUM_DEVICES"));
    builder.environment().putAll(java.util.Map.of("KUBECONFIG",
        server.writeKubeconfig(root.resolve("kubeconfig")).toString(), "NODE_NAME", "node-1",
        "POD_UID", UUID.randomUUID().toString(),
        "KUBELET_REGISTRAR_DIRECTORY_PATH", registry.toString(),
        "KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString(), "CDI_ROOT", cdi.toString(),
        "HEALTHCHECK_PORT", "0", "METRICS_PORT", "-1", "NUM_DEVICES", "2",
        "LOG_FORMAT", format));
    Path stderr = root.resolve("stderr");
    Path stdout = root.resolve("stdout");
    process = builder.redirectError(stderr.toFile()).redirectOutput(stdout.toFile()).start();

    await().atMost(WAIT).until(() -> !KubeletClient.registrationSockets(registry).isEmpty()
        || !process.isAlive());
    assertThat(process.isAlive()).as("started; stderr:%n%s", read(stderr)).isTrue();
    Path registration = KubeletClient.registrationSockets(registry).get(0);
    try (KubeletClient kubelet = KubeletClient.create()) {
      String endpoint = await().atMost(WAIT).ignoreExceptions()
          .until(() -> kubelet.getInfo(registration).getEndpoint(), e -> !e.isEmpty());
      String uid = allocated(client).getMetadata().getUid();
      claimUid[0] = uid;
      assertThat(kubelet.prepare(Path.of(endpoint), KubeletClient.claim("default", "gpu-claim",
          uid)).getClaimsOrThrow(uid).getError()).isEmpty();
    }
    process.destroy(); // SIGTERM
    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("stderr:%n%s", read(stderr)).isEqualTo(143);
    assertThat(read(stdout)).isEmpty();
    return Files.readAllLines(stderr);
  }

  @Test
  void jsonMakesEveryLineAKubernetesJsonObjectAndAPrepareNamesItsClaim() throws Exception {
    String[] uid = new String[1];
    List<String> lines = prepareOnce("json", uid);

    List<JsonNode> nodes = new ArrayList<>();
    for (String line : lines) {
      JsonNode node = JSON.readTree(line);
      assertThat(node.get("ts").isFloatingPointNumber()).as(line).isTrue();
      assertThat(node.get("logger").isString()).as(line).isTrue();
      assertThat(node.get("msg").isString()).as(line).isTrue();
      if (node.has("err") || !node.has("v")) {
        assertThat(node.has("v")).as("an error line has no v: %s", line).isFalse();
      } else {
        assertThat(node.get("v").isInt()).as(line).isTrue();
      }
      nodes.add(node);
    }
    assertThat(nodes.get(0).get("msg").asString()).startsWith("gpu-driver ")
        .endsWith(" kubelet-plugin starting");
    List<JsonNode> prepared = nodes.stream()
        .filter(node -> node.get("msg").asString().equals("Prepared claim")).toList();
    assertThat(prepared).as("one line for the one prepare:%n%s", String.join("\n", lines))
        .hasSize(1);
    JsonNode line = prepared.get(0);
    assertThat(line.get("v").asInt()).isZero();
    assertThat(line.get("claim").asString()).isEqualTo("default/gpu-claim:" + uid[0]);
    assertThat(line.get("requestID").asString()).isNotEmpty();
    assertThat(line.get("method").asString()).endsWith("/NodePrepareResources");
    assertThat(line.get("devices").get(0).asString()).isEqualTo("node-1/gpu-1");
    assertThat(line.get("cdiDevices").toString()).contains(uid[0]);
    assertThat(line.get("durationMs").isNumber()).isTrue();
  }

  @Test
  void textMakesEveryLineOneKlogLineAndAPrepareNamesItsClaim() throws Exception {
    String[] uid = new String[1];
    List<String> lines = prepareOnce("text", uid);

    assertThat(lines).allSatisfy(line -> assertThat(line).matches(TEXT_LINE));
    assertThat(lines.get(0)).startsWith("I").contains("] \"gpu-driver ")
        .endsWith(" kubelet-plugin starting\"");
    assertThat(lines).filteredOn(line -> line.contains("\"Prepared claim\"")).singleElement()
        .asString().startsWith("I")
        .contains(" claim=\"default/gpu-claim:" + uid[0] + "\"", " requestID=\"",
            "/NodePrepareResources\"", " devices=[\"node-1/gpu-1\"]", " durationMs=");
  }

  private static ResourceClaim allocated(KubernetesClient client) {
    ResourceClaim created = client.resource(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName("gpu-claim").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest().endDevices()
        .endSpec().build()).create();
    created.setStatus(new ResourceClaimBuilder().withNewStatus().withNewAllocation()
        .withNewDevices().addNewResult().withDriver("gpu.example.com").withRequest("gpu")
        .withPool("node-1").withDevice("gpu-1").endResult().endDevices().endAllocation()
        .endStatus().build().getStatus());
    return client.resource(created).updateStatus();
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
