package io.github.dra4j.kubeletplugin.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.dra4j.kubeletplugin.FatalErrorPolicy;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A driver's whole life as a process of its own, ended by a real SIGTERM or by a fatal error: the
 * code after {@code awaitTermination()} runs to the end in both cases, and the exit status tells
 * which it was. Also what a fresh JVM logs when it reads claims of an older cluster.
 */
class ProcessLifecycleTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private Path kubeconfig;
  private Process process;

  @BeforeEach
  void startServer() {
    server = InMemoryApiServer.builder().build().start();
    kubeconfig = server.writeKubeconfig(root.resolve("kubeconfig"));
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    server.close();
  }

  private Path registry() {
    return root.resolve("registry");
  }

  private Path data() {
    return root.resolve("plugins");
  }

  private Path output() {
    return root.resolve("driver.out");
  }

  private Process java(Class<?> main, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        "-Dlogback.configurationFile=" + System.getProperty("logback.configurationFile", ""),
        main.getName()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    builder.environment().remove("NODE_NAME");
    builder.environment().remove("POD_UID");
    builder.redirectErrorStream(true).redirectOutput(output().toFile());
    return builder.start();
  }

  private void startDriver(FatalErrorPolicy policy) throws IOException {
    Files.createDirectories(registry());
    Files.createDirectories(data());
    process = java(DriverProcess.class, registry().toString(), data().toString(), policy.name());
    await().atMost(WAIT).until(() -> output().toFile().exists() && lines().contains("started"));
  }

  private List<String> lines() throws IOException {
    return Files.readAllLines(output(), StandardCharsets.UTF_8);
  }

  @Test
  void sigtermClosesThePluginAndTheCodeAfterAwaitTerminationStillRuns() throws Exception {
    startDriver(FatalErrorPolicy.CLOSE);
    Path socket = registry().resolve("gpu.example.com-reg.sock");
    try (KubeletClient kubelet = KubeletClient.create()) {
      // The kubelet's 1 s deadline can pass on a loaded machine while both JVMs warm up; the
      // kubelet retries, and so does the test.
      await().atMost(WAIT).ignoreExceptions()
          .until(() -> kubelet.getInfo(socket).getName().equals("gpu.example.com"));
    }

    process.destroy(); // SIGTERM

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("killed by SIGTERM").isEqualTo(143);
    assertThat(lines()).contains("cleanup done, failure: none", "client closed");
    assertThat(socket).doesNotExist();
    assertThat(data().resolve("dra.sock")).doesNotExist();
  }

  @Test
  void readingClaimsOfAnOlderClusterLogsNoUnstableVersionWarning() throws Exception {
    // a 1.32 cluster: only v1beta1 is served
    server.enableGroupVersion("resource.k8s.io/v1beta1");
    server.disableGroupVersion("resource.k8s.io/v1");
    server.client().resource(
        new io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceClaimBuilder()
            .withNewMetadata().withName("old").withNamespace("ns").endMetadata()
            .withNewSpec().withNewDevices().addNewRequest().withName("gpu")
            .withDeviceClassName("gpu.example.com").withAllocationMode("ExactCount")
            .withCount(1L).endRequest().endDevices().endSpec().build())
        .create();

    process = java(ClaimReadProcess.class, "ns", "old");

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(lines()).contains("device class: gpu.example.com",
        "missing: resourceclaims.resource.k8s.io \"missing\" not found");
    assertThat(String.join("\n", lines())).doesNotContain("unstable version");
  }

  @Test
  void theExitPolicyEndsTheProcessWithStatusOneAfterTheCleanup() throws Exception {
    startDriver(FatalErrorPolicy.EXIT);

    Files.delete(data().resolve("dra.sock"));

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isEqualTo(1);
    assertThat(lines()).anySatisfy(line -> assertThat(line)
        .startsWith("cleanup done, failure: socket \"" + data().resolve("dra.sock")
            + "\" was removed or replaced"));
    assertThat(lines()).contains("client closed");
    assertThat(registry().resolve("gpu.example.com-reg.sock")).doesNotExist();
  }
}
