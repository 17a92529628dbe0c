package io.github.dra4j.kubeletplugin.internal.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.testing.apiserver.ApiRequest;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.apiserver.InMemoryApiServerBuilder;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The v1 → v1beta2 → v1beta1 negotiation against the in-memory API server with versions turned
 * off, as on older clusters (which serve the beta versions that 1.36 serves only when asked to):
 * discovery and the per-version paths agree, as on a real server.
 */
class ApiServerClaimSourceTest {

  private InMemoryApiServer server;
  private KubernetesClient client;

  private void start(String... disabledVersions) {
    InMemoryApiServerBuilder builder = InMemoryApiServer.builder()
        .enableGroupVersion("resource.k8s.io/v1beta2")
        .enableGroupVersion("resource.k8s.io/v1beta1");
    for (String version : disabledVersions) {
      builder.disableGroupVersion("resource.k8s.io/" + version);
    }
    server = builder.build().start();
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private List<String> claimGets() {
    Predicate<ApiRequest> claims = r -> r.path().contains("/resourceclaims/");
    return server.requests().stream().filter(claims).map(ApiRequest::path).toList();
  }

  private void createV1beta1(String name) {
    client.resource(new io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceClaimBuilder()
        .withNewMetadata().withName(name).withNamespace("ns").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu")
        .withDeviceClassName("gpu.example.com").withAllocationMode("ExactCount").withCount(2L)
        .endRequest().endDevices().endSpec()
        .build()).create();
  }

  @Test
  void readsAV1ClaimWithOneGet() {
    start();
    client.resource(new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder()
        .withNewMetadata().withName("a").withNamespace("ns").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest().endDevices().endSpec()
        .build()).create();
    ApiServerClaimSource source = new ApiServerClaimSource(client);
    server.clearRequests();

    ResourceClaim claim = source.get("ns", "a", "");

    assertThat(claim.getSpec().getDevices().getRequests().get(0).getExactly().getDeviceClassName())
        .isEqualTo("gpu.example.com");
    assertThat(server.requests()).hasSize(1);
    assertThat(source.currentVersion()).isEqualTo("v1");
  }

  @Test
  void fallsBackToV1beta1ConvertsToV1AndRemembersTheVersion() {
    start("v1", "v1beta2");
    createV1beta1("old");
    ApiServerClaimSource source = new ApiServerClaimSource(client);
    server.clearRequests();

    ResourceClaim claim = source.get("ns", "old", "");

    assertThat(claimGets()).as("v1, then straight to the served v1beta1").containsExactly(
        "/apis/resource.k8s.io/v1/namespaces/ns/resourceclaims/old",
        "/apis/resource.k8s.io/v1beta1/namespaces/ns/resourceclaims/old");
    assertThat(claim.getApiVersion()).isEqualTo("resource.k8s.io/v1");
    var exactly = claim.getSpec().getDevices().getRequests().get(0).getExactly();
    assertThat(exactly.getDeviceClassName()).isEqualTo("gpu.example.com");
    assertThat(exactly.getCount()).isEqualTo(2L);
    assertThat(exactly.getAllocationMode()).isEqualTo("ExactCount");
    assertThat(source.currentVersion()).isEqualTo("v1beta1");

    server.clearRequests();
    source.get("ns", "old", "");
    assertThat(server.requests()).as("remembered version: one GET").hasSize(1);
  }

  @Test
  void readsV1beta2WithTheV1Shape() {
    start("v1");
    client.resource(new io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceClaimBuilder()
        .withNewMetadata().withName("mid").withNamespace("ns").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("c").endExactly().endRequest().endDevices().endSpec()
        .build()).create();

    ResourceClaim claim = new ApiServerClaimSource(client).get("ns", "mid", "");

    assertThat(claim.getSpec().getDevices().getRequests().get(0).getExactly().getDeviceClassName())
        .isEqualTo("c");
  }

  @Test
  void aMissingClaimCostsOneGetWhenDiscoverySaysTheVersionIsServed() {
    start();
    ApiServerClaimSource source = new ApiServerClaimSource(client);
    server.clearRequests();

    assertThatThrownBy(() -> source.get("ns", "nope", "uid"))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(404))
        .hasMessageContaining("resourceclaims.resource.k8s.io \"nope\" not found");
    assertThat(claimGets()).containsExactly(
        "/apis/resource.k8s.io/v1/namespaces/ns/resourceclaims/nope");
    assertThat(source.currentVersion()).isEqualTo("v1");

    server.clearRequests();
    assertThatThrownBy(() -> source.get("ns", "nope-too", "uid"))
        .isInstanceOf(KubernetesClientException.class);
    assertThat(server.requests()).as("discovery is cached: one GET only").hasSize(1);
  }

  @Test
  void whenDiscoveryDoesNotKnowTheGroupEveryVersionIsTriedAsTheGoHelperDoes() {
    start("v1", "v1beta2", "v1beta1");
    ApiServerClaimSource source = new ApiServerClaimSource(client);
    server.clearRequests();

    assertThatThrownBy(() -> source.get("ns", "nope", "uid"))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(404));
    assertThat(claimGets()).containsExactly(
        "/apis/resource.k8s.io/v1/namespaces/ns/resourceclaims/nope",
        "/apis/resource.k8s.io/v1beta2/namespaces/ns/resourceclaims/nope",
        "/apis/resource.k8s.io/v1beta1/namespaces/ns/resourceclaims/nope");
  }
}
