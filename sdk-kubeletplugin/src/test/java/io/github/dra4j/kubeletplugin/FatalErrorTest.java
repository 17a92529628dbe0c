package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What happens after a fatal background error, with real sockets, a real ResourceSlice
 * controller and the in-memory API server: one report, the chosen policy, and a close that may
 * run inside the driver's own error handler.
 */
class FatalErrorTest {

  private static final Duration CHECK = Duration.ofMillis(100);

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private KubernetesClient client;

  @BeforeEach
  void startServer() {
    server = InMemoryApiServer.builder().build().start();
    client = server.client();
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
        .build()).create();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private static DriverResources oneGpu() {
    return DriverResources.of("node-1",
        Pool.builder().devices(List.of(new DeviceBuilder().withName("gpu-0").build())).build());
  }

  private static boolean sliceWorkerRuns() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("dra4j-resourceslice-" + DRIVER) && t.isAlive());
  }

  /** A driver following the old advice: close the plugin from handleError on a fatal error. */
  private static final class ClosingDriver extends RecordingDriver {
    final AtomicReference<KubeletPlugin> plugin = new AtomicReference<>();
    final CompletableFuture<Long> closeMillis = new CompletableFuture<>();

    ClosingDriver() {
      super(DRIVER);
    }

    @Override
    public void handleError(Throwable error, String message) {
      super.handleError(error, message);
      if (!RecoverableException.isRecoverable(error)) {
        long begin = System.nanoTime();
        plugin.get().close();
        closeMillis.complete((System.nanoTime() - begin) / 1_000_000);
      }
    }
  }

  @Test
  void aDriverClosingThePluginFromHandleErrorGetsOneReportAndAFullStop() throws Exception {
    ClosingDriver driver = new ClosingDriver();
    KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .shutdown(s -> s.withFatalErrorPolicy(FatalErrorPolicy.REPORT))
        .sockets(s -> s.withCheckInterval(CHECK))
        .slices(s -> s.withSyncDelay(Duration.ofMillis(100)))
        .start();
    driver.plugin.set(plugin);
    plugin.publishResources(oneGpu());
    assertThat(sliceWorkerRuns()).isTrue();

    Files.delete(plugin.draSocket());

    long closeMillis = driver.closeMillis.get(30, TimeUnit.SECONDS);
    assertThat(closeMillis).as("close from handleError must not wait on its own thread")
        .isLessThan(5_000);
    assertThat(plugin.registrationSocket()).doesNotExist();
    assertThat(sliceWorkerRuns()).as("the slice controller's worker stopped").isFalse();
    Thread.sleep(10 * CHECK.toMillis()); // many socket checks after close: none may report
    assertThat(driver.errors()).singleElement()
        .satisfies(error -> assertThat(error.getValue()).isEqualTo("DRA gRPC server failed"));
    assertThat(plugin.failure()).containsSame(driver.errors().get(0).getKey());
  }

  @Test
  void byDefaultAFatalErrorClosesThePluginAndAwaitTerminationSaysWhy() throws Exception {
    RecordingDriver driver = new RecordingDriver(DRIVER);
    KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .sockets(s -> s.withCheckInterval(CHECK))
        .start();
    CompletableFuture<Void> terminated = CompletableFuture.runAsync(() -> {
      try {
        plugin.awaitTermination();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    assertThat(plugin.failure()).isEmpty();

    Files.delete(plugin.registrationSocket());

    terminated.get(30, TimeUnit.SECONDS);
    assertThat(plugin.isServing()).isFalse();
    assertThat(plugin.draSocket()).doesNotExist();
    assertThat(plugin.failure()).hasValueSatisfying(error -> assertThat(error)
        .hasMessageContaining(plugin.registrationSocket() + "\" was removed or replaced"));
    Thread.sleep(5 * CHECK.toMillis());
    assertThat(driver.errors()).singleElement()
        .satisfies(error -> assertThat(error.getValue()).isEqualTo("registrar gRPC server failed"));
  }

  @Test
  void aRecoverableErrorNeverClosesThePlugin() {
    RecordingDriver driver = new RecordingDriver(DRIVER);
    server.failNext(ApiVerb.CREATE, "resourceslices", 500, 1);
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .slices(s -> s.withSyncDelay(Duration.ofMillis(100))).start()) {
      plugin.publishResources(oneGpu());
      await().atMost(Duration.ofSeconds(30)).until(() -> !driver.errors().isEmpty());
      assertThat(RecoverableException.isRecoverable(driver.errors().get(0).getKey())).isTrue();
      await().atMost(Duration.ofSeconds(30))
          .until(() -> plugin.sliceStats().creates() == 1);
      assertThat(plugin.isServing()).isTrue();
      assertThat(plugin.failure()).isEmpty();
    }
  }

  @Test
  void aClaimCacheThatCannotReachTheApiServerFailsStartWithTheRealCause() throws Exception {
    int closedPort;
    try (ServerSocket probe = new ServerSocket(0)) {
      closedPort = probe.getLocalPort();
    }
    try (KubernetesClient unreachable = new KubernetesClientBuilder().withConfig(
        new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + closedPort)
            .withRequestRetryBackoffLimit(1).withRequestRetryBackoffInterval(10).build())
        .build()) {
      assertThatThrownBy(() -> TestPlugins.builder(new RecordingDriver(DRIVER), unreachable, root)
          .apiServer(a -> a.withClaimCache(true).withTimeout(Duration.ofSeconds(20))).start())
          .isInstanceOf(PluginStartException.class)
          .hasMessageStartingWith("claim cache: list ResourceClaims at http://127.0.0.1:"
              + closedPort + "/apis/resource.k8s.io/v1/resourceclaims: ")
          .hasMessageContaining("Connection refused")
          .hasMessageEndingWith("(API server http://127.0.0.1:" + closedPort + "/ from the"
              + " client given to kubeClient(); option ApiServerOptions.timeout is PT20S)")
          .hasMessageNotContaining("did not complete within");
    }
    assertThat(root.resolve("registry").resolve(DRIVER + "-reg.sock")).doesNotExist();
    assertThat(root.resolve("plugins").resolve(DRIVER).resolve("dra.sock")).doesNotExist();
  }

  @Test
  void aClaimCacheWithoutListPermissionFailsStartNamingTheRefusal() {
    server.failNext(ApiVerb.LIST, "resourceclaims", 403, 100);
    assertThatThrownBy(() -> TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .apiServer(a -> a.withClaimCache(true).withTimeout(Duration.ofSeconds(20))).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessageStartingWith("claim cache: list ResourceClaims at " + server.url()
            + "apis/resource.k8s.io/v1/resourceclaims: ")
        .hasMessageContaining("403");
  }

  @Test
  void missingEnvironmentVariablesLeaveOptionsUnset() {
    RecordingDriver driver = new RecordingDriver(DRIVER);
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .nodeName(System.getenv("DRA4J_TEST_NO_SUCH_VARIABLE"))
        .nodeUid(null)
        .rollingUpdate(null)
        .start()) {
      assertThat(plugin.registrationSocket().getFileName()).hasToString(DRIVER + "-reg.sock");
      assertThatThrownBy(() -> plugin.publishResources(oneGpu()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("no NodeName was set to publish resources");
    }
  }

  @Test
  void invalidOptionsAreRefusedAtTheSetterWithTheirName() {
    KubeletPluginBuilder builder = KubeletPlugin.builder(new RecordingDriver(DRIVER));
    assertThatThrownBy(() -> builder.shutdown(s -> s.withFatalErrorPolicy(null)))
        .hasMessage("fatalErrorPolicy");
    assertThatThrownBy(() -> builder.apiServer(a -> a.withTimeout(Duration.ZERO)))
        .hasMessage("apiServerTimeout must be positive, got PT0S");
    assertThatThrownBy(() -> builder.shutdown(s -> s.withGracePeriod(null)))
        .hasMessage("shutdownGracePeriod must be positive, got null");
    assertThatThrownBy(() -> builder.sockets(s -> s.withPermissions(null)))
        .hasMessage("socketPermissions");
    assertThatThrownBy(() -> builder.metadata(m -> m.withVersions((String) null)))
        .hasMessage("metadataVersions element");
  }
}
