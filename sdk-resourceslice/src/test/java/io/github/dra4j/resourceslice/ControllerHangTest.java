package io.github.dra4j.resourceslice;

import static io.github.dra4j.resourceslice.ControllerFixture.pool;
import static io.github.dra4j.resourceslice.ControllerFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.dra4j.testing.apiserver.ApiVerb;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An API server that accepts connections and never answers: the controller's start fails within
 * its start timeout naming the URL it listed; a Node lookup or a write that gets no answer fails
 * after the request timeout (10 s for a client without one), is reported and retried with
 * backoff; the controller does not wedge.
 */
class ControllerHangTest {

  /** The bound of a request of a client without a timeout of its own: fabric8's default. */
  private static final Duration DEFAULT_BOUND = Duration.ofSeconds(10);

  @Test
  void aStartUnderAHangFailsWithinTheStartTimeoutNamingTheUrl() {
    try (ControllerFixture fixture = new ControllerFixture()) {
      fixture.server.hangAll();
      long start = System.nanoTime();

      assertThatThrownBy(() -> fixture.start(pool("pool", slice("a")),
          b -> b.startTimeout(Duration.ofSeconds(1))))
          .isInstanceOf(ControllerStartException.class)
          .hasMessageContaining("list ResourceSlices at " + fixture.server.url()
              + "apis/resource.k8s.io/v1/resourceslices: no successful list within PT1S");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
      fixture.server.clearHangs();
    }
  }

  @Test
  void aNodeLookupWithoutAnswerIsReportedWithItsUrlAndRetried() {
    try (ControllerFixture fixture = new ControllerFixture();
        KubernetesClient impatient = new KubernetesClientBuilder().withConfig(
            new ConfigBuilder(fixture.client.getConfiguration()).withRequestTimeout(500)
                .build())
            .build()) {
      fixture.server.hangNext(ApiVerb.GET, "nodes", 1);

      fixture.start(pool("pool", slice("a")), b -> b.client(impatient));

      fixture.awaitPool("pool", java.util.List.of(java.util.List.of("a")));
      assertThat(fixture.errors).singleElement().asString().startsWith(
          "processing ResourceSlice objects: retrieve node \"node-1\": GET "
              + fixture.server.url() + "api/v1/nodes/node-1: ");
      fixture.server.clearHangs();
    }
  }

  @Test
  void aWriteWithoutAnswerFailsAfterTheDefaultBoundAndIsRetriedWhenTheClientSetsNone() {
    try (ControllerFixture fixture = new ControllerFixture();
        KubernetesClient unbounded = new KubernetesClientBuilder().withConfig(
            new ConfigBuilder(fixture.client.getConfiguration()).withRequestTimeout(0)
                .build())
            .build()) {
      fixture.server.hangNext(ApiVerb.CREATE, "resourceslices", 1);
      long start = System.nanoTime();

      fixture.start(pool("pool", slice("a")), b -> b.client(unbounded));

      await().atMost(DEFAULT_BOUND.plusSeconds(5))
          .until(() -> fixture.slicesOf("pool").size() == 1);
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(DEFAULT_BOUND);
      assertThat(fixture.errors).singleElement().asString()
          .startsWith("processing ResourceSlice objects: create resource slice: ");
      fixture.server.clearHangs();
    }
  }
}
