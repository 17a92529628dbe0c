package io.github.dra4j.testing.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the README's {@code main} as written, as its own process, with the kubelet's and CDI's
 * default directories: a private mount namespace ({@code unshare -m}) puts temporary directories
 * over {@code /var/lib} and {@code /run}, so nothing on the machine is touched. {@code POD_UID} is
 * unset, as outside a pod; the process is ended with a real SIGTERM. Skipped where mount
 * namespaces are not allowed (not root, no {@code unshare}).
 */
class ReadmeMainProcessTest {

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

  private static boolean mountNamespacesWork() {
    try {
      Process probe = new ProcessBuilder("unshare", "-m", "--propagation", "private", "true")
          .redirectErrorStream(true).start();
      return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Test
  void theReadmeMainServesPublishesAndFinishesItsCleanupOnSigterm() throws Exception {
    assumeTrue(mountNamespacesWork(),
        "unshare -m is not allowed here (needs root): cannot give the README's main its own"
            + " /var/lib/kubelet and /var/run/cdi");
    Path varLib = Files.createDirectories(root.resolve("var-lib"));
    Path run = Files.createDirectories(root.resolve("run"));
    Path registry = Files.createDirectories(varLib.resolve("kubelet/plugins_registry"));
    Files.createDirectories(varLib.resolve("kubelet/plugins/gpu.example.com"));
    Files.createDirectories(run.resolve("cdi"));
    server = InMemoryApiServer.builder().build().start();
    KubernetesClient client = server.client();
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
        .build()).create();
    Path kubeconfig = server.writeKubeconfig(root.resolve("kubeconfig"));
    Path output = root.resolve("main.out");

    ProcessBuilder builder = new ProcessBuilder("unshare", "-m", "--propagation", "private",
        "sh", "-c", "mount --bind \"$0\" /var/lib && mount --bind \"$1\" /run"
            + " && exec \"$2\" -cp \"$3\" \"-Dlogback.configurationFile=$4\" \"$5\"",
        varLib.toString(), run.toString(),
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        System.getProperty("java.class.path"),
        System.getProperty("logback.configurationFile", ""),
        ExampleGpuDriverMain.class.getName());
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    builder.environment().put("NODE_NAME", "node-1");
    builder.environment().remove("POD_UID");
    builder.environment().put("HEALTHCHECK_PORT", "0");
    builder.environment().put("METRICS_PORT", "0");
    process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();

    Path registration = registry.resolve("gpu.example.com-reg.sock");
    await().atMost(WAIT).until(() -> Files.exists(registration) || !process.isAlive());
    assertThat(process.isAlive()).as("main started; output:%n%s", read(output)).isTrue();
    try (KubeletClient kubelet = KubeletClient.create()) {
      // The kubelet's 1 s deadline can pass while a fresh JVM warms up; it retries, so does this.
      String endpoint = await().atMost(WAIT).ignoreExceptions()
          .until(() -> kubelet.getInfo(registration).getEndpoint(), e -> !e.isEmpty());
      assertThat(endpoint).isEqualTo("/var/lib/kubelet/plugins/gpu.example.com/dra.sock");
      Path dra = varLib.resolve(endpoint.substring("/var/lib/".length()));
      await().atMost(WAIT).until(() -> client.dynamicResourceAllocation().v1().resourcesSlices()
          .withField("spec.nodeName", "node-1").list().getItems().size() == 1);

      ResourceClaim claim = allocatedClaim(client);
      String uid = claim.getMetadata().getUid();
      NodePrepareResourceResponse answer = kubelet.prepare(dra,
          KubeletClient.claim("default", "gpu", uid)).getClaimsOrThrow(uid);

      assertThat(answer.getError()).isEmpty();
      assertThat(answer.getDevices(0).getCdiDeviceIdsList())
          .containsExactly("k8s.gpu.example.com/claim=" + uid + "-gpu-0");
      assertThat(run.resolve("cdi/k8s.gpu.example.com-claim_" + uid + ".json")).exists();
      assertThat(varLib.resolve("kubelet/plugins/gpu.example.com/checkpoint.json")).exists();
    }
    // The settings came from the environment and were logged once; METRICS_PORT=0 picked a port.
    String log = read(output);
    assertThat(log).contains("driver gpu.example.com on node node-1: registration socket "
        + "/var/lib/kubelet/plugins_registry/gpu.example.com-reg.sock");
    assertThat(log).contains("(client made from the environment)");
    Matcher metrics = Pattern.compile("metrics served at http://[^:]+:(\\d+)/metrics")
        .matcher(log);
    assertThat(metrics.find()).as("metrics endpoint in the log:%n%s", log).isTrue();
    HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + metrics.group(1) + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(scrape.body()).contains("dra4j_grpc_operations_duration_seconds_count{"
        + "driver_name=\"gpu.example.com\",grpc_status_code=\"OK\","
        + "method_name=\"/k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources\"} 1");

    process.destroy(); // SIGTERM

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isEqualTo(143);
    assertThat(read(output)).contains("gpu.example.com stopped");
    assertThat(registration).doesNotExist();
  }

  private static ResourceClaim allocatedClaim(KubernetesClient client) {
    ResourceClaim created = client.resource(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName("gpu").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu").endExactly().endRequest().endDevices().endSpec()
        .build()).create();
    created.setStatus(new ResourceClaimBuilder().withNewStatus().withNewAllocation()
        .withNewDevices().addNewResult().withRequest("gpu").withDriver("gpu.example.com")
        .withPool("node-1").withDevice("gpu-0").endResult().endDevices().endAllocation()
        .endStatus().build().getStatus());
    return client.resource(created).updateStatus();
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? String.join("\n", Files.readAllLines(file, StandardCharsets.UTF_8))
        : "";
  }
}
