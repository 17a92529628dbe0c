package io.github.dra4j.kubeletplugin.internal.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

/**
 * The v1 → v1beta2 → v1beta1 negotiation against the CRUD mock server, which stores each API
 * version under its own path: a claim created through v1beta1 is a 404 on the v1 and v1beta2
 * paths, exactly what an API server without those versions answers.
 */
@EnableKubernetesMockClient(crud = true)
class ApiServerClaimSourceTest {

  KubernetesClient client;
  KubernetesMockServer server;

  @Test
  void readsAV1ClaimWithOneGet() {
    client.resource(new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder()
        .withNewMetadata().withName("a").withNamespace("ns").endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest().endDevices().endSpec()
        .build()).create();
    ApiServerClaimSource source = new ApiServerClaimSource(client);
    int before = server.getRequestCount();

    ResourceClaim claim = source.get("ns", "a", "");

    assertThat(claim.getSpec().getDevices().getRequests().get(0).getExactly().getDeviceClassName())
        .isEqualTo("gpu.example.com");
    assertThat(server.getRequestCount() - before).isEqualTo(1);
    assertThat(source.currentVersion()).isEqualTo("v1");
  }

  @Test
  void fallsBackToV1beta1ConvertsToV1AndRemembersTheVersion() {
    client.resources(io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceClaim.class)
        .resource(new io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceClaimBuilder()
            .withNewMetadata().withName("old").withNamespace("ns").endMetadata()
            .withNewSpec().withNewDevices().addNewRequest().withName("gpu")
            .withDeviceClassName("gpu.example.com").withAllocationMode("ExactCount").withCount(2L)
            .endRequest().endDevices().endSpec()
            .build())
        .create();
    ApiServerClaimSource source = new ApiServerClaimSource(client);
    int before = server.getRequestCount();

    ResourceClaim claim = source.get("ns", "old", "");

    assertThat(server.getRequestCount() - before).as("v1, v1beta2, v1beta1").isEqualTo(3);
    assertThat(claim.getApiVersion()).isEqualTo("resource.k8s.io/v1");
    var exactly = claim.getSpec().getDevices().getRequests().get(0).getExactly();
    assertThat(exactly.getDeviceClassName()).isEqualTo("gpu.example.com");
    assertThat(exactly.getCount()).isEqualTo(2L);
    assertThat(exactly.getAllocationMode()).isEqualTo("ExactCount");
    assertThat(source.currentVersion()).isEqualTo("v1beta1");

    int second = server.getRequestCount();
    source.get("ns", "old", "");
    assertThat(server.getRequestCount() - second).as("remembered version: one GET").isEqualTo(1);
  }

  @Test
  void readsV1beta2WithTheV1Shape() {
    client.resources(io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceClaim.class)
        .resource(new io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceClaimBuilder()
            .withNewMetadata().withName("mid").withNamespace("ns").endMetadata()
            .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
            .withDeviceClassName("c").endExactly().endRequest().endDevices().endSpec()
            .build())
        .create();

    ResourceClaim claim = new ApiServerClaimSource(client).get("ns", "mid", "");

    assertThat(claim.getSpec().getDevices().getRequests().get(0).getExactly().getDeviceClassName())
        .isEqualTo("c");
  }

  @Test
  void aMissingClaimCostsThreeGetsEndsIn404AndKeepsTheVersion() {
    ApiServerClaimSource source = new ApiServerClaimSource(client);
    int before = server.getRequestCount();

    assertThatThrownBy(() -> source.get("ns", "nope", "uid"))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(404))
        .hasMessageContaining("resourceclaims.resource.k8s.io \"nope\" not found");
    assertThat(server.getRequestCount() - before).isEqualTo(3);
    assertThat(source.currentVersion()).isEqualTo("v1");
  }
}
