package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpu-driver kubelet-plugin} whose kubeconfig names an API server nobody listens on: after
 * the API server timeout it fails with one line that names the URL, the setting it came from and
 * the cause, and nothing on the way logs a stack trace (it logged 254 lines, most of them stack
 * traces of every retry, and the cause as a bare {@code java.net.ConnectException}).
 */
class ApiServerUnreachableProcessTest {

  @TempDir
  Path root;
  private Process process;

  @AfterEach
  void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aClosedPortFailsTheStartInOneLineNamingTheUrlTheSettingAndTheCause() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path kubeconfig = Files.writeString(root.resolve("kubeconfig"), """
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster:
            server: http://127.0.0.1:%d
        contexts:
        - name: c
          context: {cluster: c, user: u}
        current-context: c
        users:
        - name: u
          user: {token: t}
        """.formatted(port));
    Path output = root.resolve("plugin.out");
    List<String> command = new ArrayList<>(DriverCommands.onTestClassPath());
    command.add("kubelet-plugin");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.startsWith("KUBERNETES_")
        || name.startsWith("GPU_") || name.equals("NUM_DEVICES"));
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    builder.environment().put("NODE_NAME", "node-1");
    builder.environment().put("POD_UID", UUID.randomUUID().toString());
    builder.environment().put("KUBELET_REGISTRAR_DIRECTORY_PATH",
        Files.createDirectories(root.resolve("registry")).toString());
    builder.environment().put("KUBELET_PLUGINS_DIRECTORY_PATH",
        Files.createDirectories(root.resolve("plugins")).toString());
    builder.environment().put("CDI_ROOT", Files.createDirectories(root.resolve("cdi")).toString());
    builder.environment().put("HEALTHCHECK_PORT", "0");
    builder.environment().put("METRICS_PORT", "-1");
    builder.environment().put("NUM_DEVICES", "2");
    process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();

    // The API server timeout is 60 s.
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String log = Files.readString(output);
    System.out.printf("API server unreachable: exit %d, %d lines above DEBUG:%n%s%n",
        process.exitValue(), log.lines().filter(l -> !l.contains(" DEBUG ")).count(), log);

    assertThat(process.exitValue()).isEqualTo(1);
    String url = "http://127.0.0.1:" + port;
    assertThat(log.lines().filter(l -> l.contains("gpu-driver kubelet-plugin failed")))
        .singleElement().asString()
        .contains(url + "/apis/resource.k8s.io/v1/resourceslices",
            "no successful list within PT1M", "connection refused",
            "from KUBECONFIG=" + kubeconfig, "option ApiServerOptions.timeout is PT1M");
    assertThat(log).as("no stack traces").doesNotContain("\tat ", "Caused by:");
    // The tests' logging configuration shows DEBUG too; what an operator sees is INFO and up.
    List<String> shown = log.lines().filter(l -> !l.contains(" DEBUG ")).toList();
    assertThat(shown.stream().filter(l -> l.contains("Cannot list ResourceSlices at " + url)))
        .as("one line for the failed lists, not one per retry").hasSize(1);
    assertThat(shown).hasSizeLessThan(20);
    assertThat(log).doesNotContain("serves 2 devices");
  }
}
