package io.github.dra4j.resourceslice;

import static io.github.dra4j.resourceslice.ControllerFixture.DRIVER;
import static io.github.dra4j.resourceslice.ControllerFixture.NODE;
import static io.github.dra4j.resourceslice.ControllerFixture.TIMEOUT;
import static io.github.dra4j.resourceslice.ControllerFixture.devices;
import static io.github.dra4j.resourceslice.ControllerFixture.pool;
import static io.github.dra4j.resourceslice.ControllerFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttributeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.testing.apiserver.ApiVerb;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Minimal traffic, recovery from failures and from slices deleted behind the controller's back. */
class ConvergenceTest {

  private static final Duration HOUR = Duration.ofHours(1);

  private final ControllerFixture fixture = new ControllerFixture();

  @AfterEach
  void close() {
    fixture.close();
  }

  private static DriverResources flat(List<Device> devices) {
    return DriverResources.of("pool", Pool.builder().devices(devices).build());
  }

  @Test
  void restartWithUnchangedDevicesWritesNothing() {
    DriverResources resources = flat(devices("gpu-", 300));
    ResourceSliceController first = fixture.start(resources);
    await().atMost(TIMEOUT).until(() -> first.stats().creates() == 3);
    first.close();
    long writesBefore = fixture.writes();

    ResourceSliceController second = fixture.start(resources);
    fixture.awaitStats(second, new ControllerStats(0, 0, 0));
    assertThat(fixture.writes()).isEqualTo(writesBefore);
    assertThat(fixture.errors).isEmpty();
  }

  @Test
  void oneChangedDeviceRewritesOneSlice() {
    List<Device> devices = new ArrayList<>(devices("gpu-", 300));
    ResourceSliceController controller = fixture.start(flat(devices));
    fixture.awaitStats(controller, new ControllerStats(3, 0, 0));
    devices.set(200, new DeviceBuilder(devices.get(200))
        .addToAttributes("health", new DeviceAttributeBuilder().withString("degraded").build())
        .build());
    controller.update(flat(devices));
    fixture.awaitStats(controller, new ControllerStats(3, 1, 0));
    ResourceSlice changed = fixture.slicesOf("pool").get(1);
    assertThat(changed.getSpec().getDevices().get(200 - 128).getAttributes())
        .containsKey("health");
    assertThat(fixture.slicesOf("pool")).allMatch(s -> s.getSpec().getPool().getGeneration() == 1);
  }

  @ParameterizedTest
  @CsvSource({"127, false, 1", "128, false, 1", "129, false, 2",
      "63, true, 1", "64, true, 1", "65, true, 2"})
  void flatPoolsAreSplitWithinApiLimits(int count, boolean tainted, int expectedSlices) {
    List<Device> devices = IntStream.range(0, count).mapToObj(i -> {
      DeviceBuilder device = new DeviceBuilder().withName("dev-" + i);
      if (tainted) {
        device.addNewTaint().withKey("example.com/unhealthy").withEffect("NoSchedule").endTaint();
      }
      return device.build();
    }).toList();
    ResourceSliceController controller = fixture.start(flat(devices));
    fixture.awaitStats(controller, new ControllerStats(expectedSlices, 0, 0));
    List<ResourceSlice> slices = fixture.slicesOf("pool");
    assertThat(slices).hasSize(expectedSlices);
    assertThat(slices.stream().mapToInt(s -> s.getSpec().getDevices().size()).sum())
        .isEqualTo(count);
    assertThat(fixture.errors).isEmpty();
  }

  @Test
  void sliceDeletedBySomeoneElseIsRecreatedWithoutWaitingForTheSyncDelay() {
    ResourceSliceController controller = fixture.start(pool("pool", slice("a"), slice("b"),
        slice("c")), b -> b.syncDelay(HOUR));
    fixture.awaitStats(controller, new ControllerStats(3, 0, 0));
    String victim = fixture.slicesOf("pool").get(1).getMetadata().getName();
    fixture.client.dynamicResourceAllocation().v1().resourcesSlices().withName(victim).delete();

    fixture.awaitPool("pool", List.of(List.of("a"), List.of("b"), List.of("c")));
    fixture.awaitStats(controller, new ControllerStats(4, 0, 0));
    assertThat(fixture.slicesOf("pool")).allMatch(s -> s.getSpec().getPool().getGeneration() == 1);
  }

  @Test
  void kubeletWipeOfTheNodesSlicesIsUndoneQuickly() {
    ResourceSliceController controller = fixture.start(flat(devices("gpu-", 300)),
        b -> b.syncDelay(HOUR));
    fixture.awaitStats(controller, new ControllerStats(3, 0, 0));

    fixture.client.dynamicResourceAllocation().v1().resourcesSlices()
        .withField("spec.nodeName", NODE).withField("spec.driver", DRIVER).delete();

    await().atMost(TIMEOUT).until(() -> fixture.slicesOf("pool").size() == 3
        && fixture.slicesOf("pool").stream().mapToInt(s -> s.getSpec().getDevices().size())
            .sum() == 300);
    assertThat(controller.stats().creates()).isEqualTo(6);
    assertThat(controller.stats().deletes()).isZero();
  }

  @Test
  void deletionDuringAWatchOutageIsSeenAfterTheWatchResumes() {
    ResourceSliceController controller = fixture.start(pool("pool", slice("a"), slice("b")),
        b -> b.syncDelay(HOUR));
    fixture.awaitStats(controller, new ControllerStats(2, 0, 0));
    await().atMost(TIMEOUT).until(() -> fixture.server.openWatches() == 1);

    assertThat(fixture.server.closeWatches()).isEqualTo(1);
    String victim = fixture.slicesOf("pool").get(0).getMetadata().getName();
    fixture.client.dynamicResourceAllocation().v1().resourcesSlices().withName(victim).delete();

    fixture.awaitPool("pool", List.of(List.of("a"), List.of("b")));
    await().atMost(TIMEOUT).until(() -> fixture.server.openWatches() == 1);
    fixture.awaitStats(controller, new ControllerStats(3, 0, 0));
  }

  @Test
  void conflictsOnUpdateAreRetriedUntilTheyPass() {
    ResourceSliceController controller = fixture.start(pool("pool", slice("a")));
    fixture.awaitStats(controller, new ControllerStats(1, 0, 0));
    fixture.server.failNext(ApiVerb.UPDATE, "resourceslices", 409, 2);

    controller.update(pool("pool", slice("b")));
    fixture.awaitPool("pool", List.of(List.of("b")));
    fixture.awaitStats(controller, new ControllerStats(1, 1, 0));
    assertThat(fixture.errors).hasSize(2).allSatisfy(e -> assertThat(e)
        .startsWith("processing ResourceSlice objects: update resource slice: ")
        .contains("the object has been modified"));
  }

  @Test
  void serverErrorsOnCreateAreRetriedWithBackoff() {
    fixture.server.failNext(ApiVerb.CREATE, "resourceslices", 500, 3);
    ResourceSliceController controller = fixture.start(pool("pool", slice("a"), slice("b")));
    fixture.awaitPool("pool", List.of(List.of("a"), List.of("b")));
    fixture.awaitStats(controller, new ControllerStats(2, 0, 0));
    assertThat(fixture.errors).hasSize(3).allSatisfy(e -> assertThat(e)
        .startsWith("processing ResourceSlice objects: create resource slice: "));
    assertThat(fixture.errorObjects.get(0)).hasRootCauseInstanceOf(
        io.fabric8.kubernetes.client.KubernetesClientException.class);
    assertThat(fixture.slicesOf("pool")).hasSize(2);
  }

  @Test
  void failedListsDuringStartAreRetried() {
    fixture.server.failNext(ApiVerb.LIST, "resourceslices", 500, 2);
    ResourceSliceController controller = fixture.start(pool("pool", slice("a")));
    fixture.awaitPool("pool", List.of(List.of("a")));
    fixture.awaitStats(controller, new ControllerStats(1, 0, 0));
  }

  @Test
  void slicesStayWhenTheControllerStops() {
    ResourceSliceController controller = fixture.start(pool("pool", slice("a")));
    fixture.awaitPool("pool", List.of(List.of("a")));
    controller.close();
    controller.close();
    controller.update(pool("pool", slice("b")));
    assertThat(fixture.deviceNames("pool")).containsExactly(List.of("a"));
  }
}
