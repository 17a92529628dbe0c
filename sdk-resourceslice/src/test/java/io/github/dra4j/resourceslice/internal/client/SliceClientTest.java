package io.github.dra4j.resourceslice.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rule D9 for slice writes against the in-memory API server. */
class SliceClientTest {

  /** A server that also serves the beta versions (1.36 serves them only when asked to). */
  private final InMemoryApiServer server = InMemoryApiServer.builder()
      .enableGroupVersion("resource.k8s.io/v1beta2").enableGroupVersion("resource.k8s.io/v1beta1")
      .build().start();
  private final SliceClient slices = new SliceClient(server.client());

  @AfterEach
  void close() {
    server.close();
  }

  private static ResourceSlice slice(String name) {
    return new ResourceSliceBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withDriver("gpu.example.com").withNodeName("n")
        .withNewPool().withName("p").withGeneration(1L).withResourceSliceCount(1L).endPool()
        .addNewDevice().withName("d").endDevice().endSpec().build();
  }

  @Test
  void notFoundMovesToTheNextVersionAndIsRemembered() {
    server.disableGroupVersion("resource.k8s.io/v1");
    ResourceSlice created = slices.create(slice("a"));
    assertThat(slices.version()).isEqualTo(SliceVersion.V1BETA2);
    assertThat(created.getApiVersion()).isEqualTo("resource.k8s.io/v1");
    assertThat(created.getSpec().getDevices().get(0).getName()).isEqualTo("d");
    server.clearRequests();
    slices.create(slice("b"));
    assertThat(server.requests()).singleElement()
        .satisfies(r -> assertThat(r.resource().version()).isEqualTo("v1beta2"));
  }

  @Test
  void otherErrorsDoNotChangeTheVersion() {
    server.failNext(ApiVerb.CREATE, "resourceslices", 500, 1);
    assertThatThrownBy(() -> slices.create(slice("a")))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(500));
    assertThat(slices.version()).isEqualTo(SliceVersion.V1);
  }

  @Test
  void deletingAMissingSliceTriesEveryVersionAndEndsWhereItStarted() {
    ResourceSlice created = slices.create(slice("a"));
    assertThat(slices.delete(created)).isTrue();
    server.clearRequests();
    assertThat(slices.delete(created)).isFalse();
    assertThat(server.requests()).extracting(r -> r.resource().version())
        .containsExactly("v1", "v1beta2", "v1beta1");
    assertThat(slices.version()).isEqualTo(SliceVersion.V1);
  }

  @Test
  void deleteWithAStaleResourceVersionConflicts() {
    ResourceSlice created = slices.create(slice("a"));
    slices.update(new ResourceSliceBuilder(created).editSpec().editPool().withGeneration(2L)
        .endPool().endSpec().build());
    assertThatThrownBy(() -> slices.delete(created))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(409));
  }
}
