package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.PluginContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API client a plugin makes from the environment runs on fabric8's JDK HTTP client in this
 * driver, and closing the plugin stops that client's selector thread: left in {@code epoll_wait},
 * it made every SIGTERM slower, as the JVM waits for threads in native code at exit (see
 * docs/performance.md, "Shutdown").
 * Needs JDK 21 or newer ({@code HttpClient.shutdownNow}); skipped, saying so, on older ones.
 */
class PluginClientShutdownTest {

  @TempDir
  Path root;

  private static long selectorThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().matches("HttpClient-\\d+-SelectorManager"))
        .count();
  }

  @Test
  void closingThePluginStopsItsJdkHttpClientsSelectorThread() throws Exception {
    assumeTrue(hasShutdownNow(), "HttpClient.shutdownNow needs JDK 21+; this is "
        + Runtime.version());
    DraDriver nothing = new DraDriver() {
      @Override
      public void start(PluginContext plugin) {}

      @Override
      public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
          CallContext context) {
        return Map.of();
      }

      @Override
      public Map<String, UnprepareResult> unprepareResourceClaims(List<ClaimReference> claims,
          CallContext context) {
        return Map.of();
      }
    };
    try (InMemoryApiServer server = InMemoryApiServer.builder().build().start()) {
      server.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1")
          .endMetadata().build()).create();
      Files.createDirectories(root.resolve("plg").resolve("gpu.example.com"));
      long before = selectorThreads();
      KubeletPlugin plugin = KubeletPlugin.builder(nothing).driverName("gpu.example.com")
          .fromEnvironment(Map.of("KUBECONFIG", server.writeKubeconfig(root.resolve("kc"))
              .toString(), "NODE_NAME", "node-1", "POD_UID", UUID.randomUUID().toString(),
              "KUBELET_REGISTRAR_DIRECTORY_PATH", dir("reg"),
              "KUBELET_PLUGINS_DIRECTORY_PATH", dir("plg"), "CDI_ROOT", dir("cdi")))
          .shutdown(s -> s.withCloseOnShutdown(false)).start();
      assertThat(selectorThreads()).as("the plugin's client runs a selector").isGreaterThan(
          before);

      plugin.close();

      await().atMost(Duration.ofSeconds(10)).until(() -> selectorThreads() == before);
    }
  }

  private String dir(String name) throws Exception {
    return Files.createDirectories(root.resolve(name)).toString();
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
