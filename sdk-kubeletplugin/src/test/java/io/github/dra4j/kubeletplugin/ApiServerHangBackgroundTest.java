package io.github.dra4j.kubeletplugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.HangFixture;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the plugin does in the background or at start against an API server that accepts
 * connections and never answers: claim status reports end within {@code apiServerTimeout} of
 * being made, queued ones included, and are written again once it answers; the claim cache's
 * first list and the first publish of resources fail within {@code apiServerTimeout}, naming the
 * URL they waited for. The plugin's API client is made from the DaemonSet's environment.
 */
class ApiServerHangBackgroundTest {

  private static final Duration API_SERVER_TIMEOUT = Duration.ofSeconds(1);
  /** What a wait for the API server may take beyond {@link #API_SERVER_TIMEOUT}. */
  private static final Duration SLACK = Duration.ofMillis(1500);

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private Map<String, String> environment;

  @BeforeEach
  void start() throws Exception {
    server = InMemoryApiServer.builder().build().start();
    environment = HangFixture.environment(root, server);
  }

  @AfterEach
  void stop() {
    server.clearHangs();
    server.close();
  }

  private KubeletPluginBuilder builder() {
    return KubeletPlugin.builder(new HangFixture.RememberingDriver())
        .driverName(TestPlugins.DRIVER).shutdown(s -> s.withCloseOnShutdown(false))
        .fromEnvironment(environment)
        .apiServer(a -> a.withTimeout(API_SERVER_TIMEOUT));
  }

  private static AllocatedDeviceStatus ready() {
    return new AllocatedDeviceStatusBuilder().withPool("node-1").withDevice("gpu-0")
        .withData(Map.of("state", "ready")).build();
  }

  private static Throwable failureOf(CompletableFuture<Void> report) throws Exception {
    try {
      report.get(API_SERVER_TIMEOUT.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS);
      throw new AssertionError("the report was written while the API server hung");
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  @Test
  void statusReportsEndWithinApiServerTimeoutAndAreWrittenOnceTheApiServerAnswers()
      throws Exception {
    ResourceClaim claim = ClaimFixtures.store(server.client(),
        ClaimFixtures.allocated("default", "c", TestPlugins.DRIVER));
    try (KubeletPlugin plugin = builder().apiServer(a -> a.withClaimStatus(true)).start()) {
      server.hangAll();
      long start = System.nanoTime();
      CompletableFuture<Void> first = plugin.claimStatus().report(claim, List.of(ready()));
      CompletableFuture<Void> queued = plugin.claimStatus().report(claim, List.of(ready()));

      assertThat(failureOf(first)).hasMessageContaining("GET " + server.url()
          + "apis/resource.k8s.io/v1/namespaces/default/resourceclaims/c: no answer from the"
          + " API server within 1.0 s (option ApiServerOptions.timeout)");
      // Queued behind the first, it is not sent at all, or sent with what little time is left.
      assertThat(failureOf(queued)).hasMessageContaining(server.url())
          .hasMessageContaining("1.0 s (option ApiServerOptions.timeout)");
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(API_SERVER_TIMEOUT.plus(SLACK));

      server.clearHangs();
      plugin.claimStatus().report(claim, List.of(ready())).get(10, TimeUnit.SECONDS);
      ResourceClaim stored = server.client().resources(ResourceClaim.class)
          .inNamespace("default").withName("c").get();
      assertThat(stored.getStatus().getDevices()).singleElement()
          .satisfies(d -> assertThat(d.getDevice()).isEqualTo("gpu-0"));
    }
  }

  @Test
  void theClaimCachesFirstListFailsTheStartWithinApiServerTimeoutNamingTheUrl() {
    server.hangAll();
    long start = System.nanoTime();

    assertThatThrownBy(() -> builder().apiServer(a -> a.withClaimCache(true)).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessageContaining(server.url() + "apis/resource.k8s.io/v1/resourceclaims")
        .hasMessageContaining("option ApiServerOptions.timeout is PT1S");
    assertThat(Duration.ofNanos(System.nanoTime() - start))
        .isLessThan(API_SERVER_TIMEOUT.plus(SLACK));
  }

  @Test
  void theFirstPublishFailsWithinApiServerTimeoutNamingTheUrl() {
    try (KubeletPlugin plugin = builder().start()) {
      server.hangAll();
      long start = System.nanoTime();

      assertThatThrownBy(() -> plugin.publishResources(DriverResources.of("node-1",
          Pool.builder().devices(List.of(new DeviceBuilder().withName("gpu-0").build()))
              .build())))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(server.url() + "apis/resource.k8s.io/v1/resourceslices");
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(API_SERVER_TIMEOUT.plus(SLACK));
    }
  }
}
