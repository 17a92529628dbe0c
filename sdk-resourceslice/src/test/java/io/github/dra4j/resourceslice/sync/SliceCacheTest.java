package io.github.dra4j.resourceslice.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SliceCacheTest {

  private final AtomicLong clock = new AtomicLong();
  private final SliceCache cache = new SliceCache(Duration.ofSeconds(60), clock::get);

  private static ResourceSlice slice(String name, String uid, String resourceVersion, String pool) {
    return new ResourceSliceBuilder().withNewMetadata().withName(name).withUid(uid)
        .withResourceVersion(resourceVersion).endMetadata()
        .withNewSpec().withNewPool().withName(pool).endPool().endSpec().build();
  }

  private static String versionOf(ResourceSlice slice) {
    return slice.getMetadata().getResourceVersion();
  }

  @Test
  void ownWritesAreVisibleBeforeTheInformerSeesThem() {
    cache.written(slice("a", "u1", "5", "p"));
    assertThat(cache.pool("p")).extracting(SliceCacheTest::versionOf).containsExactly("5");
    assertThat(cache.pool("other")).isEmpty();
  }

  @Test
  void higherResourceVersionWins() {
    cache.informerUpsert(slice("a", "u1", "4", "p"));
    cache.written(slice("a", "u1", "5", "p"));
    assertThat(cache.pool("p")).extracting(SliceCacheTest::versionOf).containsExactly("5");
    cache.informerUpsert(slice("a", "u1", "6", "p"));
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
    cache.informerUpsert(a);
    cache.deletedByController(a);
    assertThat(cache.pool("p")).isEmpty();
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
    cache.informerUpsert(a);
    cache.deletedByController(a);
    cache.deletionFailed(a);
    assertThat(cache.pool("p")).hasSize(1);
  }
}
