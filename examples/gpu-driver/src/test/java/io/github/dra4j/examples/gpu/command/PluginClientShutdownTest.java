package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API client a plugin makes from the environment runs on fabric8's JDK HTTP client in this
 * driver, and closing the plugin stops that client's selector thread: left in {@code epoll_wait},
 * it made every SIGTERM slower, as the JVM waits for threads in native code at exit (see
 * docs/performance.md, "Shutdown"). The plugin runs in a JVM of its own, so that only its
 * client's threads are counted (not the in-memory API server's). Needs JDK 21 or newer ({@code HttpClient.shutdownNow}); skipped,
 * saying so, on older ones.
 */
class PluginClientShutdownTest {

  @TempDir
  Path root;

  @Test
  void closingThePluginStopsItsJdkHttpClientsSelectorThread() throws Exception {
    assumeTrue(hasShutdownNow(), "HttpClient.shutdownNow needs JDK 21+; this is "
        + Runtime.version());
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start()) {
      server.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1")
          .endMetadata().build()).create();
      Path kubeconfig = server.writeKubeconfig(root.resolve("kc"));

      Process process = new ProcessBuilder(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "--enable-native-access=ALL-UNNAMED", "-cp",
          System.getProperty("java.class.path"),
          PluginClientShutdownMain.class.getName(), kubeconfig.toString(),
          Files.createDirectories(root.resolve("plugin")).toString())
          .redirectErrorStream(true).start();
      String output;
      try (var in = process.getInputStream()) {
        output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(process.waitFor(90, TimeUnit.SECONDS)).as(output).isTrue();

      assertThat(process.exitValue()).as(output).isZero();
      assertThat(output).as("selector threads of the plugin's client")
          .contains("selectors before=0 running=1 closed=0");
    }
  }

  private static boolean hasShutdownNow() {
    try {
      HttpClient.class.getMethod("shutdownNow");
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }
}
