package io.github.dra4j.resourceslice;

import static io.github.dra4j.resourceslice.ControllerFixture.DRIVER;
import static io.github.dra4j.resourceslice.ControllerFixture.NODE;
import static io.github.dra4j.resourceslice.ControllerFixture.TIMEOUT;
import static io.github.dra4j.resourceslice.ControllerFixture.device;
import static io.github.dra4j.resourceslice.ControllerFixture.pool;
import static io.github.dra4j.resourceslice.ControllerFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Validation, dropped fields, taint times, owner lookup and metrics against the server. */
class PublishingRulesTest {

  private ControllerFixture fixture = new ControllerFixture();

  /** Replaces the fixture by one whose server has other DRA feature gates. */
  private void withFeatureGates(String gates) {
    fixture.close();
    fixture = new ControllerFixture(InMemoryApiServer.builder().featureGates(gates).build());
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  private static Device tainted(String name, String time) {
    return new DeviceBuilder().withName(name).addNewTaint().withKey("example.com/unhealthy")
        .withValue("ecc").withEffect("NoSchedule").withTimeAdded(time).endTaint().build();
  }

  @Test
  void invalidPoolIsReportedAndSkippedWhileOthersPublish() {
    ResourceSliceController controller = fixture.start(DriverResources.builder()
        .pool("good", Pool.builder().addSlice(slice("a")).build())
        .pool("bad", Pool.builder().addSlice(slice("x", "x")).build()).build());
    fixture.awaitPool("good", List.of(List.of("a")));
    await().atMost(TIMEOUT).until(() -> fixture.errors.contains(
        "pool validation failed: found duplicate device \"x\" in pool \"bad\"; pool \"bad\","
            + " slice #0: spec.devices[1]: Duplicate value: \"x\""));
    assertThat(fixture.errorObjects).first().isInstanceOfSatisfying(PoolValidationException.class,
        e -> assertThat(e.poolName()).isEqualTo("bad"));
    assertThat(fixture.slicesOf("bad")).isEmpty();

    controller.update(DriverResources.builder()
        .pool("good", Pool.builder().addSlice(slice("a")).build())
        .pool("bad", Pool.builder().addSlice(slice("x", "y")).build()).build());
    fixture.awaitPool("bad", List.of(List.of("x", "y")));
    fixture.awaitStats(controller, new ControllerStats(2, 0, 0));
  }

  @Test
  void aSliceTheServerWouldRefuseIsReportedWithItsLinesAndNeverSent() {
    Device bound = new DeviceBuilder().withName("gpu-0").withBindingConditions("attached")
        .build();
    ResourceSliceController controller = fixture.start(DriverResources.builder()
        .pool("good", Pool.builder().addSlice(slice("a")).build())
        .pool("bad", Pool.builder().addSlice(slice("b")).addSlice(Slice.of(List.of(bound)))
            .build())
        .build());
    fixture.awaitPool("good", List.of(List.of("a")));
    await().atMost(TIMEOUT).until(() -> fixture.errors.contains("pool validation failed: pool"
        + " \"bad\", slice #1: spec.devices[0].bindingFailureConditions: Invalid value: null:"
        + " bindingFailureConditions are required to use bindingConditions"));
    assertThat(((PoolValidationException) fixture.errorObjects.get(0)).violations()).hasSize(1);
    fixture.awaitStats(controller, new ControllerStats(1, 0, 0));
    assertThat(fixture.server.countRequests(r -> r.status() == 422)).isZero();

    controller.update(DriverResources.builder()
        .pool("good", Pool.builder().addSlice(slice("a")).build())
        .pool("bad", Pool.builder().addSlice(slice("b")).addSlice(Slice.of(List.of(
            new DeviceBuilder(bound).withBindingFailureConditions("failed").build()))).build())
        .build());
    fixture.awaitPool("bad", List.of(List.of("b"), List.of("gpu-0")));
  }

  @Test
  void anErrorHandlerMayCloseTheControllerOnItsOwnWorker() throws Exception {
    AtomicReference<ResourceSliceController> started = new AtomicReference<>();
    CountDownLatch closed = new CountDownLatch(1);
    AtomicLong closeMillis = new AtomicLong();
    ResourceSliceController controller = fixture.start(DriverResources.builder()
        .pool("bad", Pool.builder().addSlice(slice("x", "x")).build()).build(),
        options -> options.errorHandler((error, message) -> {
          long begin = System.nanoTime();
          await().atMost(TIMEOUT).until(() -> started.get() != null);
          started.get().close();
          closeMillis.set((System.nanoTime() - begin) / 1_000_000);
          closed.countDown();
        }));
    started.set(controller);

    assertThat(closed.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(closeMillis.get()).as("close must not wait for the thread it runs on")
        .isLessThan(5_000);
    await().atMost(TIMEOUT).until(() -> Thread.getAllStackTraces().keySet().stream()
        .noneMatch(t -> t.getName().equals("dra4j-resourceslice-" + DRIVER)));
  }

  @Test
  void droppedTaintsAreReportedOnceAndNotRewrittenForever() {
    withFeatureGates("DRADeviceTaints=false"); // the server drops taints, as a 1.33 one did
    ResourceSliceController controller = fixture.start(DriverResources.of("pool",
        Pool.builder().addSlice(Slice.of(List.of(tainted("gpu-0", null)))).build()));
    fixture.awaitStats(controller, new ControllerStats(1, 0, 0));
    assertThat(fixture.errors).containsExactly("create ResourceSlice: pool \"pool\", slice #0: some"
        + " fields were dropped by the apiserver, probably because these features are disabled:"
        + " DRADeviceTaints");
    DroppedFieldsException dropped = (DroppedFieldsException) fixture.errorObjects.get(0);
    assertThat(dropped.sliceIndex()).isZero();
    assertThat(dropped.desiredSlice().devices().get(0).getTaints()).hasSize(1);
    assertThat(dropped.actualSlice().devices().get(0).getTaints()).isEmpty();

    controller.update(DriverResources.of("pool", Pool.builder().addSlice(Slice.of(List.of(
        new DeviceBuilder(tainted("gpu-0", null))
            .addToAttributes("model", new DeviceAttributeBuilder().withString("x").build())
            .build())))
        .build()));
    fixture.awaitStats(controller, new ControllerStats(1, 1, 0));
    assertThat(fixture.errors).hasSize(2).last().asString().startsWith("update ResourceSlice: pool"
        + " \"pool\", slice #0: some fields were dropped by the apiserver")
        .endsWith("DRADeviceTaints");
  }

  @Test
  void serverDefaultedTaintTimeIsAdoptedWithoutRewrites() {
    // the server sets a taint's timeAdded when the client leaves it out
    ResourceSliceController controller = fixture.start(DriverResources.of("pool",
        Pool.builder().addSlice(Slice.of(List.of(tainted("gpu-0", null), device("gpu-1"))))
            .build()));
    fixture.awaitStats(controller, new ControllerStats(1, 0, 0));
    assertThat(fixture.errors).isEmpty();
    String serverTime = fixture.slicesOf("pool").get(0).getSpec().getDevices().get(0).getTaints()
        .get(0).getTimeAdded();
    assertThat(Instant.parse(serverTime)).isCloseTo(Instant.now(), within(1, ChronoUnit.MINUTES));
  }

  @Test
  void taintTimeOfThePublishedSliceIsCarriedIntoUpdates() {
    fixture.client.dynamicResourceAllocation().v1().resourcesSlices().resource(
        new ResourceSliceBuilder().withNewMetadata().withName("00000-previous").endMetadata()
            .withNewSpec().withDriver(DRIVER).withNodeName(NODE)
            .withNewPool().withName("pool").withGeneration(1L).withResourceSliceCount(1L).endPool()
            .withDevices(tainted("gpu-0", "2026-02-01T10:00:00Z")).endSpec().build())
        .create();
    Device changed = new DeviceBuilder(tainted("gpu-0", null))
        .addToAttributes("model", new DeviceAttributeBuilder().withString("a100").build()).build();
    ResourceSliceController controller = fixture.start(DriverResources.of("pool",
        Pool.builder().addSlice(Slice.of(List.of(changed))).build()));
    fixture.awaitStats(controller, new ControllerStats(0, 1, 0));
    Device published = fixture.slicesOf("pool").get(0).getSpec().getDevices().get(0);
    assertThat(published.getAttributes()).containsKey("model");
    assertThat(published.getTaints().get(0).getTimeAdded()).isEqualTo("2026-02-01T10:00:00Z");
  }

  @Test
  void taintTimesAreRoundedToTheSecond() {
    ResourceSliceController controller = fixture.start(DriverResources.of("pool",
        Pool.builder().addSlice(Slice.of(List.of(tainted("gpu-0", "2026-02-01T10:00:00.6Z"))))
            .build()));
    fixture.awaitStats(controller, new ControllerStats(1, 0, 0));
    assertThat(fixture.slicesOf("pool").get(0).getSpec().getDevices().get(0).getTaints().get(0)
        .getTimeAdded()).isEqualTo("2026-02-01T10:00:01Z");
  }

  @Test
  void missingNodeIsRetriedUntilItAppears() {
    ResourceSliceController controller = fixture.start(pool("pool", slice("a")),
        b -> b.owner(Owner.node("node-2", "")));
    await().atMost(TIMEOUT).until(() -> fixture.errors.contains("processing ResourceSlice objects:"
        + " retrieve node \"node-2\": nodes \"node-2\" not found"));
    assertThat(fixture.slicesOf("pool")).isEmpty();
    String uid = fixture.client.nodes().resource(new NodeBuilder().withNewMetadata()
        .withName("node-2").endMetadata().build()).create().getMetadata().getUid();
    controller.update(pool("pool", slice("a")));
    fixture.awaitPool("pool", List.of(List.of("a")));
    assertThat(fixture.slicesOf("pool").get(0).getMetadata().getOwnerReferences().get(0).getUid())
        .isEqualTo(uid);
  }

  @Test
  void slicesWithoutOwnerHaveNoOwnerReferenceOrNodeName() {
    fixture.start(DriverResources.of("pool", Pool.builder().allNodes(true)
        .addSlice(slice("a")).build()), b -> b.owner(null));
    fixture.awaitPool("pool", List.of(List.of("a")));
    var slice = fixture.slicesOf("pool").get(0);
    assertThat(slice.getMetadata().getOwnerReferences()).isNullOrEmpty();
    assertThat(slice.getSpec().getNodeName()).isNull();
    assertThat(slice.getMetadata().getName()).matches("00000-gpu\\.example\\.com-[a-z0-9]{5}");
  }

  @Test
  void writesAreCountedInMicrometer() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ResourceSliceController controller = fixture.start(pool("pool", slice("a"), slice("b")),
        b -> b.meterRegistry(registry));
    fixture.awaitStats(controller, new ControllerStats(2, 0, 0));
    assertThat(registry.get("dra4j.resourceslice.writes").tag("operation", "create")
        .tag("driver_name", DRIVER).counter().count()).isEqualTo(2.0);
    assertThat(registry.get("dra4j.resourceslice.sync.duration").tag("result", "success")
        .tag("driver_name", DRIVER).timer().count()).isPositive();
  }
}
