package ${package}.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import ${package}.DeviceDriver;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar target/${artifactId}.jar kubelet-plugin} as its own process, configured only
 * by the environment its DaemonSet sets, on a simulated node: it registers with the kubelet,
 * publishes its devices, answers the liveness probe, prepares a claim, counts it in its metrics,
 * and ends cleanly on SIGTERM. Runs after {@code package}, so nothing the plugin needs can be
 * missing from the jar the image ships.
 */
class KubeletPluginProcessIT {

  private static final String DRIVER = DeviceDriver.DEFAULT_NAME;
  private static final Path JAR = Path.of("target", "${artifactId}.jar").toAbsolutePath();
  private static final long WAIT_SECONDS = SimulatedNode.WAIT.toSeconds();

  @TempDir
  Path temp;
  private Process process;
  private Path plugins;

  @AfterEach
  void stop() throws InterruptedException, IOException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (plugins != null) {
      try (Stream<Path> files = Files.walk(plugins)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(file);
        }
      }
    }
  }

  /**
   * The kubelet's plugins directory for the process: as short as the real {@code
   * /var/lib/kubelet/plugins}, since the plugin's socket {@code <it>/<driver>/dra-<pod UID>.sock}
   * must fit in 107 bytes, as on a node.
   */
  private static Path shortDirectory() throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    while (true) {
      try {
        return Files.createDirectory(tmp.resolve("dra-"
            + Integer.toHexString(ThreadLocalRandom.current().nextInt())));
      } catch (FileAlreadyExistsException e) {
        // another name
      }
    }
  }

  private Process start(Path output, Map<String, String> environment) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-jar", JAR.toString(), "kubelet-plugin");
    builder.environment().keySet().removeIf(name -> List.of("NODE_NAME", "POD_UID",
        "KUBECONFIG", "DRIVER_NAME", "DEVICE_COUNT", "CDI_ROOT", "HEALTHCHECK_PORT",
        "METRICS_PORT").contains(name) || name.startsWith("KUBELET_"));
    builder.environment().putAll(environment);
    return builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
  }

  @Test
  void runsFromTheEnvironmentAloneAndEndsCleanlyOnSigterm() throws Exception {
    try (SimulatedNode node = SimulatedNode.start()) {
      int liveness = freePort();
      int metrics = freePort();
      plugins = shortDirectory();
      Path output = temp.resolve("plugin.log");
      process = start(output, Map.of(
          "NODE_NAME", node.nodeName(),
          "POD_UID", UUID.randomUUID().toString(),
          "KUBECONFIG", node.apiServer().writeKubeconfig(temp.resolve("kubeconfig")).toString(),
          "KUBELET_REGISTRAR_DIRECTORY_PATH", node.registryDirectory().toString(),
          "KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString(),
          "CDI_ROOT", node.cdiDirectory().toString(),
          "HEALTHCHECK_PORT", Integer.toString(liveness),
          "METRICS_PORT", Integer.toString(metrics),
          "DEVICE_COUNT", "2"));

      try {
        node.awaitDevices(DRIVER, 2);
        node.kubelet().awaitPlugins(plugins -> plugins.stream()
            .anyMatch(plugin -> plugin.driver().equals(DRIVER)), SimulatedNode.WAIT);
      } catch (IllegalStateException e) {
        throw new AssertionError("the plugin did not start; its output:\n" + read(output), e);
      }
      assertThat(livenessStatus(liveness, "")).as("what the chart's probes ask")
          .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);

      node.createDeviceClass(DRIVER, "device.driver == '" + DRIVER + "'");
      ResourceClaim claim = node.allocate(node.createClaim("default", "one", "dev", DRIVER, 1));
      PrepareOutcome prepared = node.prepare(DRIVER, claim);
      assertThat(prepared.isSuccess()).as("%s%noutput:%n%s", prepared, read(output)).isTrue();
      assertThat(node.containerEdits(prepared, claim).env())
          .anyMatch(variable -> variable.matches("DRA_DEVICE_[01]=device-[01]"));
      assertThat(scrape(metrics)).anyMatch(line ->
          line.startsWith("dra4j_plugin_claims_prepared_total{")
              && line.contains("driver_name=\"" + DRIVER + "\"")
              && line.contains("result=\"success\"") && line.endsWith(" 1.0"));

      process.destroy(); // SIGTERM, as the kubelet stops a pod

      assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as("143: the JVM's status after SIGTERM; output:%n%s",
          read(output)).isEqualTo(143);
      assertThat(read(output)).contains(DRIVER + " serves 2 devices on node " + node.nodeName(),
          DRIVER + " stopped");
      // dra4j-logging's klog-like text: the build's version first, one line per prepared claim
      assertThat(read(output).lines().findFirst()).hasValueSatisfying(line -> assertThat(line)
          .matches("I\\d{4} .*KubeletPluginCommand] \"${artifactId} ${version} \\(commit .*")
          .endsWith(" kubelet-plugin starting\""));
      assertThat(read(output)).contains("] \"Prepared claim\" claim=\"default/one:"
          + claim.getMetadata().getUid() + "\"");
    }
  }

  @Test
  void versionIsTheBuilds() throws Exception {
    Process version = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-jar", JAR.toString(), "--version").redirectErrorStream(true).start();
    String printed = new String(version.getInputStream().readAllBytes(),
        java.nio.charset.StandardCharsets.UTF_8);

    assertThat(version.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(version.exitValue()).as(printed).isZero();
    assertThat(printed).startsWith("${artifactId} ${version} (commit ").contains(", built ");
  }

  @Test
  void malformedSettingsStopTheStartNamingEachVariableAndValue() throws Exception {
    Path output = temp.resolve("bad.log");
    process = start(output, Map.of("NODE_NAME", "node-1", "DEVICE_COUNT", "many",
        "DRIVER_NAME", "Not_A_Name"));

    assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(read(output)).isEqualTo(2);
    assertThat(read(output)).contains("DEVICE_COUNT=\"many\": want a whole number from 0 to 64",
        "DRIVER_NAME=\"Not_A_Name\"");
  }

  private static HealthCheckResponse.ServingStatus livenessStatus(int port, String service)
      throws InterruptedException {
    ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port,
        InsecureChannelCredentials.create()).build();
    try {
      return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
          .check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
    } finally {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private static List<String> scrape(int port) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newHttpClient();
    HttpResponse<String> response = client.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return new ArrayList<>(response.body().lines().toList());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
