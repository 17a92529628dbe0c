package io.github.dra4j.resourceslice;

import static io.github.dra4j.resourceslice.ControllerFixture.pool;
import static io.github.dra4j.resourceslice.ControllerFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a pool has published, as its owner and an operator see it: every sync's outcome reaches
 * the pool status listener (instead of the error handler), and the gauges per pool say how many
 * devices and slices the API server holds and whether the pool's syncs fail, for a pool the
 * controller refuses (one bad device name) and for writes the API server refuses.
 */
class PoolStatusTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<PoolStatus> statuses = Collections.synchronizedList(new ArrayList<>());

  @Test
  void aRefusedPoolIsReportedAsFailingWithNothingPublishedUntilItIsFixed() {
    try (ControllerFixture fixture = new ControllerFixture()) {
      ResourceSliceController controller = fixture.start(pool("node-1", slice("gpu-0", "GPU_1")),
          b -> b.meterRegistry(registry).poolStatusListener(statuses::add));

      await().atMost(ControllerFixture.TIMEOUT).until(() -> !statuses.isEmpty());
      PoolStatus refused = statuses.get(0);
      assertThat(refused.published()).isFalse();
      assertThat(refused.error()).get().isInstanceOf(PoolValidationException.class)
          .asString().contains("GPU_1");
      assertThat(refused.devices()).isZero();
      assertThat(gauge(MetricNames.SLICE_PUBLISH_FAILING)).isEqualTo(1);
      assertThat(gauge(MetricNames.SLICE_PUBLISHED_DEVICES)).isZero();
      assertThat(fixture.errors).as("failures go to the listener only").isEmpty();
      assertThat(controller.poolStatuses()).containsKey("node-1");

      controller.update(pool("node-1", slice("gpu-0", "gpu-1")));

      await().atMost(ControllerFixture.TIMEOUT)
          .until(() -> statuses.get(statuses.size() - 1).published());
      assertThat(gauge(MetricNames.SLICE_PUBLISH_FAILING)).isZero();
      assertThat(gauge(MetricNames.SLICE_PUBLISHED_DEVICES)).isEqualTo(2);
      assertThat(gauge(MetricNames.SLICE_PUBLISHED_SLICES)).isEqualTo(1);
      assertThat(fixture.slicesOf("node-1")).hasSize(1);
    }
  }

  @Test
  void writesTheServerRefusesFailThePoolUntilARetrySucceeds() {
    try (ControllerFixture fixture = new ControllerFixture()) {
      fixture.server.failNext(ApiVerb.CREATE, "resourceslices", 500, 3);

      fixture.start(pool("node-1", slice("gpu-0")),
          b -> b.meterRegistry(registry).poolStatusListener(statuses::add));

      fixture.awaitPool("node-1", List.of(List.of("gpu-0")));
      await().atMost(ControllerFixture.TIMEOUT).until(() -> statuses.size() >= 4
          && statuses.get(statuses.size() - 1).published());
      assertThat(List.copyOf(statuses).subList(0, 3)).allSatisfy(s -> {
        assertThat(s.published()).isFalse();
        assertThat(s.error()).get().asString().contains("create resource slice");
      });
      assertThat(gauge(MetricNames.SLICE_PUBLISHED_DEVICES)).isEqualTo(1);
      assertThat(gauge(MetricNames.SLICE_PUBLISH_FAILING)).isZero();
      assertThat(fixture.errors).isEmpty();
    }
  }

  @Test
  void withoutAListenerFailuresStillReachTheErrorHandler() {
    try (ControllerFixture fixture = new ControllerFixture()) {
      fixture.start(pool("node-1", slice("GPU_0")));

      await().atMost(ControllerFixture.TIMEOUT).until(() -> !fixture.errors.isEmpty());
      assertThat(fixture.errors.get(0)).startsWith("pool validation failed: ");
    }
  }

  private double gauge(String name) {
    Gauge gauge = registry.find(name).tag(MetricNames.DRIVER_NAME, ControllerFixture.DRIVER)
        .tag(MetricNames.POOL, "node-1").gauge();
    assertThat(gauge).as(name).isNotNull();
    return gauge.value();
  }
}
