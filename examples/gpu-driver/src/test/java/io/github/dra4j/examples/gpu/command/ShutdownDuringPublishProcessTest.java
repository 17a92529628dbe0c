package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.github.dra4j.testing.apiserver.ApiVerb;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SIGTERM to {@code gpu-driver kubelet-plugin} while its first publish is still waiting on
 * the API server (the list of ResourceSlices is held without an answer, as a slow or stalled
 * server would), and as soon as its registration socket appears: shutdown cuts the publish short
 * instead of waiting for it to end or time out (which took 60 s under the held list).
 */
class ShutdownDuringPublishProcessTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  /**
   * Generous for a loaded machine (a SIGTERM after the publish exits in about half a second),
   * and below what the plugin took when close waited for the publish to finish.
   */
  private static final Duration EXIT_BOUND = Duration.ofSeconds(3);

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

  @Test
  void sigtermDuringTheFirstPublishEndsThePluginAtOnce() throws Exception {
    // The publish's first list of ResourceSlices never gets an answer.
    Duration exit = sigtermAfterStart(true);

    System.out.printf("SIGTERM during a held first publish: exit after %d ms%n", exit.toMillis());
  }

  @Test
  void sigtermAsSoonAsTheRegistrationSocketIsThereEndsThePluginAtOnce() throws Exception {
    Duration exit = sigtermAfterStart(false);

    System.out.printf("SIGTERM at the registration socket: exit after %d ms%n", exit.toMillis());
  }

  /** Starts the plugin, sends SIGTERM once it registers, and returns how long the exit took. */
  private Duration sigtermAfterStart(boolean holdList) throws Exception {
    Path registry = Files.createDirectories(root.resolve("plugins_registry"));
    Path plugins = Files.createDirectories(root.resolve("plugins"));
    Path cdi = Files.createDirectories(root.resolve("cdi"));
    server = InMemoryApiServer.builder().build().start();
    server.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1")
        .endMetadata().build()).create();
    if (holdList) {
      server.hangNext(ApiVerb.LIST, "resourceslices", Integer.MAX_VALUE);
    }
    Path output = root.resolve("plugin.out");
    List<String> command = new ArrayList<>(DriverCommands.onTestClassPath());
    command.add("kubelet-plugin");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.equals("POD_UID")
        || name.equals("NODE_NAME") || name.startsWith("GPU_") || name.equals("NUM_DEVICES"));
    builder.environment().put("KUBECONFIG",
        server.writeKubeconfig(root.resolve("kubeconfig")).toString());
    builder.environment().put("NODE_NAME", "node-1");
    builder.environment().put("POD_UID", UUID.randomUUID().toString());
    builder.environment().put("KUBELET_REGISTRAR_DIRECTORY_PATH", registry.toString());
    builder.environment().put("KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString());
    builder.environment().put("CDI_ROOT", cdi.toString());
    builder.environment().put("HEALTHCHECK_PORT", "0");
    builder.environment().put("METRICS_PORT", "-1");
    builder.environment().put("NUM_DEVICES", "2");
    process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();

    await().atMost(WAIT).pollInterval(Duration.ofMillis(10)).until(() -> !process.isAlive()
        || (holdList ? server.hungRequests() > 0
            : !KubeletClient.registrationSockets(registry).isEmpty()));
    assertThat(process.isAlive()).as("started; output:%n%s", read(output)).isTrue();
    assertThat(KubeletClient.registrationSockets(registry)).isNotEmpty();

    long signalled = System.nanoTime();
    process.destroy(); // SIGTERM
    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    Duration exit = Duration.ofNanos(System.nanoTime() - signalled);

    assertThat(exit).as("exit after SIGTERM; output:%n%s", read(output))
        .isLessThan(EXIT_BOUND);
    assertThat(process.exitValue()).isEqualTo(143);
    if (holdList) {
      assertThat(read(output)).doesNotContain("serves 2 devices");
    }
    return exit;
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
