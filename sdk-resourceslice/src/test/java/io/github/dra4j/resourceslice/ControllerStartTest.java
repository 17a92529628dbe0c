package io.github.dra4j.resourceslice;

import static io.github.dra4j.resourceslice.ControllerFixture.pool;
import static io.github.dra4j.resourceslice.ControllerFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.resourceslice.internal.client.SliceVersion;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Option checks, the informer's first list and the v1 -> v1beta2 -> v1beta1 fallback (on servers
 * that serve the beta versions, as older clusters do; 1.36 serves them only when asked to).
 */
class ControllerStartTest {

  @Test
  void missingDriverNameOrClientIsReportedWithTheOptionThatSetsIt() {
    try (ControllerFixture fixture = new ControllerFixture()) {
      assertThatThrownBy(() -> ResourceSliceController.start(
          fixture.options(null).driverName("").build()))
          .isInstanceOf(ControllerStartException.class)
          .hasMessage("create controller: DRA driver name is empty");
      assertThatThrownBy(() -> ResourceSliceController.builder().driverName("gpu.example.com")
          .start())
          .hasMessage("create controller: no Kubernetes API client: set one with the builder's"
              + " client(KubernetesClient), for example new KubernetesClientBuilder().build(),"
              + " which reads KUBECONFIG or, in a pod, its service account");
      assertThatThrownBy(() -> fixture.options(null).client(null))
          .isInstanceOf(NullPointerException.class).hasMessage("client");
      assertThatThrownBy(() -> fixture.options(null).driverName(null))
          .isInstanceOf(NullPointerException.class).hasMessage("driverName");
      assertThatThrownBy(() -> ResourceSliceController.start(
          fixture.options(null).driverName("GPU").build()))
          .hasMessageStartingWith("create controller: DRA driver name \"GPU\":"
              + " metadata.generateName: Invalid value: \"00000-GPU-node-1-\": a lowercase RFC"
              + " 1123 subdomain must consist of");
      assertThatThrownBy(() -> ResourceSliceController.start(
          fixture.options(null).driverName("gpu." + "a".repeat(60)).build()))
          .hasMessage("create controller: DRA driver name \"gpu." + "a".repeat(60) + "\":"
              + " spec.driver: Too long: may not be more than 63 bytes");
      assertThat(fixture.server.countWrites("resourceslices")).isZero();
    }
  }

  @Test
  void fallsBackToV1beta2WhenV1IsNotServed() {
    try (ControllerFixture fixture = new ControllerFixture(
        InMemoryApiServer.builder().enableGroupVersion("resource.k8s.io/v1beta2")
            .enableGroupVersion("resource.k8s.io/v1beta1").disableGroupVersion("resource.k8s.io/v1")
            .build())) {
      ResourceSliceController controller = fixture.start(pool("pool", slice("a", "b")));
      assertThat(controller.apiVersion()).isEqualTo(SliceVersion.V1BETA2.apiVersion());
      await().atMost(ControllerFixture.TIMEOUT)
          .until(() -> fixture.client
              .resources(io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceSlice.class)
              .list().getItems().size() == 1);
      var published = fixture.client
          .resources(io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceSlice.class)
          .list().getItems().get(0);
      assertThat(published.getSpec().getDevices()).extracting(d -> d.getName())
          .containsExactly("a", "b");
      controller.update(pool("pool", slice("a", "c")));
      await().atMost(ControllerFixture.TIMEOUT)
          .until(() -> fixture.client
              .resources(io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceSlice.class)
              .list().getItems().get(0).getSpec().getDevices().get(1).getName().equals("c"));
      assertThat(controller.stats()).isEqualTo(new ControllerStats(1, 1, 0));
      assertThat(fixture.errors).isEmpty();
    }
  }

  @Test
  void fallsBackToV1beta1WithNestedDevices() {
    try (ControllerFixture fixture = new ControllerFixture(InMemoryApiServer.builder()
        .enableGroupVersion("resource.k8s.io/v1beta2").enableGroupVersion("resource.k8s.io/v1beta1")
        .disableGroupVersion("resource.k8s.io/v1")
        .disableGroupVersion("resource.k8s.io/v1beta2").build())) {
      ResourceSliceController controller = fixture.start(pool("pool", slice("a")));
      assertThat(controller.apiVersion()).isEqualTo("resource.k8s.io/v1beta1");
      await().atMost(ControllerFixture.TIMEOUT)
          .until(() -> fixture.client.resources(ResourceSlice.class).list().getItems().size() == 1);
      ResourceSlice published = fixture.client.resources(ResourceSlice.class).list().getItems()
          .get(0);
      assertThat(published.getSpec().getDevices().get(0).getName()).isEqualTo("a");
      assertThat(published.getSpec().getDevices().get(0).getBasic()).isNotNull();
      assertThat(published.getSpec().getNodeName()).isEqualTo(ControllerFixture.NODE);
    }
  }

  @Test
  void noServedVersionFailsTheStartWithTheLastNotFound() {
    try (ControllerFixture fixture = new ControllerFixture(InMemoryApiServer.builder()
        .enableGroupVersion("resource.k8s.io/v1beta2").enableGroupVersion("resource.k8s.io/v1beta1")
        .disableGroupVersion("resource.k8s.io/v1")
        .disableGroupVersion("resource.k8s.io/v1beta2")
        .disableGroupVersion("resource.k8s.io/v1beta1").build())) {
      assertThatThrownBy(() -> fixture.start(pool("pool", slice("a"))))
          .isInstanceOf(ControllerStartException.class)
          .hasMessageStartingWith("create controller: sync ResourceSlice informer: ")
          .hasRootCauseInstanceOf(KubernetesClientException.class)
          .satisfies(e -> assertThat(((KubernetesClientException) e.getCause().getCause())
              .getCode()).isEqualTo(404));
      assertThat(fixture.server.countRequests(r -> r.status() == 404)).isEqualTo(3);
    }
  }

  @Test
  void listThatNeverSucceedsFailsTheStartAfterTheTimeout() {
    try (ControllerFixture fixture = new ControllerFixture()) {
      fixture.server.failNext(io.github.dra4j.testing.apiserver.ApiVerb.LIST, "resourceslices", 500,
          1000);
      assertThatThrownBy(() -> fixture.start(pool("pool", slice("a")),
          b -> b.startTimeout(Duration.ofSeconds(3))))
          .hasMessageStartingWith("create controller: sync ResourceSlice informer: list"
              + " ResourceSlices at " + fixture.server.url() + "apis/resource.k8s.io/v1/"
              + "resourceslices: no successful list within PT3S")
          .hasMessageContaining("injected fault");
      fixture.server.clearFaults();
      assertThat(fixture.slices()).isEmpty();
      assertThat(fixture.server.countWrites("resourceslices")).isZero();
    }
  }
}
