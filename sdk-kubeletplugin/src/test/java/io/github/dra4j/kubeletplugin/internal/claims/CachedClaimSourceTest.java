package io.github.dra4j.kubeletplugin.internal.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The opt-in claim cache: answers from its informer when the cached claim is allocated and has
 * the expected UID, and falls back to reading otherwise (missing, not yet allocated, replaced).
 */
@EnableKubernetesMockClient(crud = true)
class CachedClaimSourceTest {

  KubernetesClient client;
  private final List<String> fallbackReads = new CopyOnWriteArrayList<>();
  private CachedClaimSource cache;

  @BeforeEach
  void start() throws InterruptedException {
    ApiServerClaimSource api = new ApiServerClaimSource(client);
    ClaimSource recordingFallback = (namespace, name, uid) -> {
      fallbackReads.add(namespace + "/" + name);
      return api.get(namespace, name, uid);
    };
    cache = new CachedClaimSource(client, recordingFallback);
    cache.awaitFirstList(Duration.ofSeconds(30));
  }

  @AfterEach
  void stop() {
    cache.close();
  }

  private ResourceClaim awaitCached(ResourceClaim claim, boolean allocated) {
    await().atMost(Duration.ofSeconds(30)).until(() -> {
      ResourceClaim read = client.resource(claim).get();
      return read != null && (read.getStatus() != null && read.getStatus().getAllocation() != null)
          == allocated;
    });
    return claim;
  }

  @Test
  void anAllocatedClaimWithTheRightUidComesFromTheCache() {
    ResourceClaim stored =
        ClaimFixtures.store(client, ClaimFixtures.allocated("ns", "cached", "gpu.example.com"));
    String uid = stored.getMetadata().getUid();

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      fallbackReads.clear();
      long hits = cache.hits();
      assertThat(cache.get("ns", "cached", uid).getMetadata().getUid()).isEqualTo(uid);
      assertThat(cache.hits()).isEqualTo(hits + 1);
      assertThat(fallbackReads).isEmpty();
    });
  }

  @Test
  void aClaimMissingFromTheCacheIsReadFromTheApiServer() {
    // Stored only as v1beta1: invisible to the v1 informer, found by the negotiating read.
    client.resources(io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceClaim.class)
        .resource(new io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceClaimBuilder()
            .withNewMetadata().withName("beta").withNamespace("ns").endMetadata()
            .withNewSpec().withNewDevices().addNewRequest().withName("gpu")
            .withDeviceClassName("gpu.example.com").endRequest().endDevices().endSpec()
            .build())
        .create();
    long misses = cache.misses();

    ResourceClaim read = cache.get("ns", "beta", "any-uid");

    assertThat(read.getMetadata().getName()).isEqualTo("beta");
    assertThat(read.getSpec().getDevices().getRequests().get(0).getExactly().getDeviceClassName())
        .isEqualTo("gpu.example.com");
    assertThat(fallbackReads).containsExactly("ns/beta");
    assertThat(cache.misses()).isEqualTo(misses + 1);
  }

  @Test
  void anUnallocatedOrReplacedCachedClaimFallsBackToARead() {
    ResourceClaim pending = ClaimFixtures.allocated("ns", "pending", "gpu.example.com");
    pending.setStatus(null);
    ResourceClaim stored = awaitCached(ClaimFixtures.store(client, pending), false);
    String uid = stored.getMetadata().getUid();

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      fallbackReads.clear();
      cache.get("ns", "pending", uid);
      assertThat(fallbackReads).as("not allocated in the cache").containsExactly("ns/pending");
    });

    fallbackReads.clear();
    cache.get("ns", "pending", "another-uid");
    assertThat(fallbackReads).as("other UID").containsExactly("ns/pending");
  }
}
