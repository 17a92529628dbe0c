package io.github.dra4j.resourceapi.internal.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetaUpdatesTest {

  private static ResourceSlice slice(String uid, Long generation) {
    ResourceSlice slice = new ResourceSlice();
    slice.setMetadata(new ObjectMetaBuilder().withName("s").withUid(uid)
        .withGeneration(generation).build());
    return slice;
  }

  @Test
  void serverFieldsAreKeptOnUpdate() {
    ResourceSlice old = slice("u-1", 4L);
    old.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");
    old.getMetadata().setDeletionTimestamp("2026-02-01T00:00:00Z");
    old.getMetadata().setDeletionGracePeriodSeconds(30L);
    ResourceSlice updated = slice(null, 99L);
    updated.getMetadata().setCreationTimestamp("2030-01-01T00:00:00Z");
    MetaUpdates.keepServerFields(updated, old);
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(4L);
    assertThat(updated.getMetadata().getUid()).isEqualTo("u-1");
    assertThat(updated.getMetadata().getCreationTimestamp()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(updated.getMetadata().getDeletionTimestamp()).isEqualTo("2026-02-01T00:00:00Z");
    assertThat(updated.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
  }

  @Test
  void givenUidIsKeptForValidationToRefuse() {
    ResourceSlice updated = slice("other", 1L);
    MetaUpdates.keepServerFields(updated, slice("u-1", 1L));
    assertThat(updated.getMetadata().getUid()).isEqualTo("other");
  }

  @Test
  void statusUpdatesKeepTheStoredMetadata() {
    ResourceSlice old = slice("u-1", 4L);
    old.getMetadata().setLabels(Map.of("a", "1"));
    old.getMetadata().setAnnotations(Map.of("b", "2"));
    old.getMetadata().setFinalizers(List.of("f"));
    old.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withName("o")
        .build()));
    ResourceSlice updated = slice("u-1", 7L);
    updated.getMetadata().setLabels(Map.of("x", "y"));
    MetaUpdates.resetForStatus(updated, old);
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(4L);
    assertThat(updated.getMetadata().getLabels()).containsExactly(Map.entry("a", "1"));
    assertThat(updated.getMetadata().getAnnotations()).containsExactly(Map.entry("b", "2"));
    assertThat(updated.getMetadata().getFinalizers()).containsExactly("f");
    assertThat(updated.getMetadata().getOwnerReferences()).hasSize(1);
  }
}
