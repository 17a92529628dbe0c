package io.github.dra4j.resourceslice.internal.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SliceCacheTest {

  private final AtomicLong clock = new AtomicLong();
  private final SliceCache cache = new SliceCache(Duration.ofSeconds(60), clock::get);
  private final Map<String, ResourceSlice> informer = new LinkedHashMap<>();

  SliceCacheTest() {
    cache.attach(pool -> informer.values().stream()
        .filter(s -> s.getSpec().getPool().getName().equals(pool)).toList());
  }

  private void inform(ResourceSlice slice) {
    informer.put(slice.getMetadata().getName(), slice);
  }

  private static ResourceSlice slice(String name, String uid, String resourceVersion, String pool) {
    return new ResourceSliceBuilder().withNewMetadata().withName(name).withUid(uid)
        .withResourceVersion(resourceVersion).endMetadata()
        .withNewSpec().withNewPool().withName(pool).endPool().endSpec().build();
  }

  private static String versionOf(ResourceSlice slice) {
    return slice.getMetadata().getResourceVersion();
  }

  @Test
  void informerSlicesAreListedByPoolInNameOrder() {
    inform(slice("b", "u2", "3", "p"));
    inform(slice("a", "u1", "4", "p"));
    inform(slice("c", "u3", "5", "other"));
    assertThat(cache.pool("p")).extracting(s -> s.getMetadata().getName()).containsExactly("a",
        "b");
  }

  @Test
  void ownWritesAreVisibleBeforeTheInformerSeesThem() {
    cache.written(slice("a", "u1", "5", "p"));
    assertThat(cache.pool("p")).extracting(SliceCacheTest::versionOf).containsExactly("5");
    assertThat(cache.pool("other")).isEmpty();
  }

  @Test
  void higherResourceVersionWins() {
    inform(slice("a", "u1", "4", "p"));
    cache.written(slice("a", "u1", "5", "p"));
    assertThat(cache.pool("p")).extracting(SliceCacheTest::versionOf).containsExactly("5");
    inform(slice("a", "u1", "6", "p"));
    assertThat(cache.pool("p")).extracting(SliceCacheTest::versionOf).containsExactly("6");
  }

  @Test
  void writesExpireAfterTheTtl() {
    cache.written(slice("a", "u1", "5", "p"));
    clock.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(cache.pool("p")).isEmpty();
  }

  @Test
  void ownDeletionsAreHiddenAndRecognizedWhenTheInformerReportsThem() {
    ResourceSlice a = slice("a", "u1", "5", "p");
    inform(a);
    cache.deletedByController(a);
    assertThat(cache.pool("p")).isEmpty();
    informer.remove("a");
    assertThat(cache.informerDelete(a)).isTrue();
  }

  @Test
  void deletionsBySomeoneElseClearTheWrittenEntry() {
    ResourceSlice a = slice("a", "u1", "5", "p");
    cache.written(a);
    assertThat(cache.informerDelete(a)).isFalse();
    assertThat(cache.pool("p")).isEmpty();
  }

  @Test
  void failedDeletionMakesTheSliceVisibleAgain() {
    ResourceSlice a = slice("a", "u1", "5", "p");
    inform(a);
    cache.deletedByController(a);
    cache.deletionFailed(a);
    assertThat(cache.pool("p")).hasSize(1);
  }
}
