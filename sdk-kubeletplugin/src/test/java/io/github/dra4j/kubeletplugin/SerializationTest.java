package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.testing.kubelet.KubeletClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rules C8 and C9 inside one process: one call at a time by default, concurrency when off. */
class SerializationTest extends PluginTestBase {

  /** A driver whose prepare blocks until released, counting how many calls are inside at once. */
  private static final class GateDriver extends RecordingDriver {
    final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger mostInside = new AtomicInteger();
    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch bothInside = new CountDownLatch(2);

    GateDriver() {
      super(DRIVER);
    }

    @Override
    public Map<String, PrepareResult> prepareResourceClaims(List<ResourceClaim> claims,
        CallContext context)
        throws Exception {
      mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
      bothInside.countDown();
      try {
        release.await(30, TimeUnit.SECONDS);
        return super.prepareResourceClaims(claims, context);
      } finally {
        inside.decrementAndGet();
      }
    }
  }

  /**
   * The two kubelet callers' threads. Not CompletableFuture's default executor: from JDK 25 that
   * is the common pool even with one thread (2 CPUs), where the second call would wait for the
   * first to return whatever the plugin does. Owned by the test.
   */
  private final ExecutorService callers = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopCallers() {
    callers.shutdownNow();
  }

  private List<String> storeTwoClaims() {
    return List.of(
        ClaimFixtures.store(client, ClaimFixtures.allocated("default", "one", DRIVER))
            .getMetadata().getUid(),
        ClaimFixtures.store(client, ClaimFixtures.allocated("default", "two", DRIVER))
            .getMetadata().getUid());
  }

  @Test
  void aSecondCallWaitsUntilTheFirstReturns() throws Exception {
    GateDriver driver = new GateDriver();
    List<String> uids = storeTwoClaims();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root).start()) {
      var first = CompletableFuture.supplyAsync(
          () -> kubelet.prepare(plugin.draSocket(), claim("default", "one", uids.get(0))), callers);
      await().atMost(Duration.ofSeconds(30)).until(() -> driver.inside.get() == 1);
      var second = CompletableFuture.supplyAsync(
          () -> kubelet.prepare(plugin.draSocket(), claim("default", "two", uids.get(1))), callers);

      // If serialization were broken the second call would enter at once; it must not.
      assertThat(driver.bothInside.await(1, TimeUnit.SECONDS)).isFalse();
      assertThat(second).isNotDone();

      driver.release.countDown();
      assertThat(first.get(30, TimeUnit.SECONDS).getClaimsOrThrow(uids.get(0)).getError())
          .isEmpty();
      assertThat(second.get(30, TimeUnit.SECONDS).getClaimsOrThrow(uids.get(1)).getError())
          .isEmpty();
      assertThat(driver.mostInside.get()).isEqualTo(1);
    }
  }

  @Test
  void withSerializationOffCallsOverlap() throws Exception {
    GateDriver driver = new GateDriver();
    List<String> uids = storeTwoClaims();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .serialization(s -> s.withEnabled(false))
        .start()) {
      var first = CompletableFuture.supplyAsync(
          () -> kubelet.prepare(plugin.draSocket(), claim("default", "one", uids.get(0))), callers);
      var second = CompletableFuture.supplyAsync(
          () -> kubelet.prepare(plugin.draSocket(), claim("default", "two", uids.get(1))), callers);

      assertThat(driver.bothInside.await(30, TimeUnit.SECONDS))
          .as("both calls inside the driver at once").isTrue();
      driver.release.countDown();
      first.get(30, TimeUnit.SECONDS);
      second.get(30, TimeUnit.SECONDS);
      assertThat(driver.mostInside.get()).isEqualTo(2);
    }
  }
}
