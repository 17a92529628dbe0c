package io.github.dra4j.resourceslice;

import static io.github.dra4j.resourceslice.ControllerFixture.DRIVER;
import static io.github.dra4j.resourceslice.ControllerFixture.NODE;
import static io.github.dra4j.resourceslice.ControllerFixture.TIMEOUT;
import static io.github.dra4j.resourceslice.ControllerFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rules G4, G5, G6 and G15 with reconcile-pool-with-name. */
class ReconcilePoolWithNameTest {

  private final ControllerFixture fixture = new ControllerFixture();

  @AfterEach
  void close() {
    fixture.close();
  }

  private static DriverResources network(String pool, String... devices) {
    return DriverResources.of(pool, Pool.builder().allNodes(true)
        .addSlice(slice(devices)).build());
  }

  private void createForeign(String name, String pool, String nodeName) {
    fixture.client.dynamicResourceAllocation().v1().resourcesSlices().resource(
        new ResourceSliceBuilder().withNewMetadata().withName(name).endMetadata()
            .withNewSpec().withDriver(DRIVER).withNodeName(nodeName)
            .withAllNodes(nodeName == null ? Boolean.TRUE : null)
            .withNewPool().withName(pool).withGeneration(1L).withResourceSliceCount(1L).endPool()
            .endSpec().build())
        .create();
  }

  @Test
  void publishesWithoutNodeNameButWithTheNodeAsOwner() {
    ResourceSliceController controller = fixture.start(network("net", "a"),
        b -> b.reconcilePoolWithName("net"));
    fixture.awaitPool("net", List.of(List.of("a")));
    ResourceSlice slice = fixture.slicesOf("net").get(0);
    assertThat(slice.getSpec().getNodeName()).isNull();
    assertThat(slice.getSpec().getAllNodes()).isTrue();
    assertThat(slice.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(fixture.nodeUid));
    assertThat(slice.getMetadata().getName()).startsWith("00000-" + DRIVER + "-" + NODE + "-");
    assertThat(controller.stats()).isEqualTo(new ControllerStats(1, 0, 0));
  }

  @Test
  void otherPoolsAndNodeLocalSlicesAreLeftAlone() {
    createForeign("other-pool-slice", "other", null);
    createForeign("node-local-slice", "net", NODE);
    ResourceSliceController controller = fixture.start(network("net", "a"),
        b -> b.reconcilePoolWithName("net"));
    await().atMost(TIMEOUT).until(() -> controller.stats().creates() == 1);
    await().during(Duration.ofMillis(600)).atMost(TIMEOUT)
        .until(() -> controller.stats().equals(new ControllerStats(1, 0, 0)));
    assertThat(fixture.slices()).extracting(s -> s.getMetadata().getName())
        .contains("other-pool-slice", "node-local-slice");
  }

  @Test
  void updateWithOtherPoolsIsReportedAndIgnored() {
    ResourceSliceController controller = fixture.start(network("net", "a"),
        b -> b.reconcilePoolWithName("net"));
    fixture.awaitPool("net", List.of(List.of("a")));
    controller.update(DriverResources.builder()
        .pool("net", Pool.builder().allNodes(true).addSlice(slice("b")).build())
        .pool("extra", Pool.builder().allNodes(true).addSlice(slice("c")).build()).build());
    assertThat(fixture.errors).containsExactly("processing update DriverResources:"
        + " ReconcilePoolWithName=\"net\", but found 2 pools; expected exactly one pool with this"
        + " name");
    await().during(Duration.ofMillis(500)).atMost(TIMEOUT)
        .until(() -> fixture.deviceNames("net").equals(List.of(List.of("a"))));
    assertThat(fixture.slicesOf("extra")).isEmpty();

    controller.update(DriverResources.empty());
    await().atMost(TIMEOUT).until(() -> fixture.slicesOf("net").isEmpty());
    assertThat(fixture.errors).hasSize(1);
  }
}
