package io.github.dra4j.kubeletplugin.internal.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
  private final Map<String, ResourceClaim> onlyInFallback = new ConcurrentHashMap<>();
  private CachedClaimSource cache;

  @BeforeEach
  void start() throws InterruptedException {
    ApiServerClaimSource api = new ApiServerClaimSource(client);
    ClaimSource recordingFallback = (namespace, name, uid) -> {
      fallbackReads.add(namespace + "/" + name);
      ResourceClaim only = onlyInFallback.get(namespace + "/" + name);
      return only != null ? only : api.get(namespace, name, uid);
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
      return read != null
          && (read.getStatus() != null && read.getStatus().getAllocation() != null) == allocated;
    });
    return claim;
  }

  @Test
  void anAllocatedClaimWithTheRightUidComesFromTheCache() {
    ResourceClaim stored = ClaimFixtures.store(client,
        ClaimFixtures.allocated("ns", "cached", "gpu.example.com"));
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
  void aClaimMissingFromTheCacheIsReadFromTheFallback() {
    // Not in the API server at all, so never in the informer's store: only the fallback has it.
    ResourceClaim elsewhere = ClaimFixtures.allocated("ns", "elsewhere", "gpu.example.com");
    elsewhere.getMetadata().setUid("uid-elsewhere");
    onlyInFallback.put("ns/elsewhere", elsewhere);
    long misses = cache.misses();

    ResourceClaim read = cache.get("ns", "elsewhere", "uid-elsewhere");

    assertThat(read).isSameAs(elsewhere);
    assertThat(fallbackReads).containsExactly("ns/elsewhere");
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
