package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.github.dra4j.kubelet.wire.health.v1.DRAResourceHealthGrpc;
import io.github.dra4j.kubelet.wire.health.v1.HealthStatus;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesRequest;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import io.github.dra4j.kubeletplugin.internal.health.DeviceHealthBoard;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import org.junit.jupiter.api.Test;

/** Device health streaming over real sockets: full snapshots at once, on change and refreshed. */
class HealthStreamTest extends PluginTestBase {

  @Test
  void v1StreamGetsTheSnapshotAtOnceAndEveryChange() {
    try (KubeletPlugin plugin = TestPlugins
        .builder(new RecordingDriver(DRIVER).withHealth(), client, root).start()) {
      Instant checked = Instant.ofEpochSecond(1_800_000_000L);
      plugin.deviceHealth().report(
          new DeviceHealth("node-1", "gpu-0", HealthState.HEALTHY, checked, null, ""),
          new DeviceHealth("node-1", "gpu-1", HealthState.HEALTHY, checked,
              Duration.ofSeconds(60), ""));

      Context.CancellableContext watch = Context.current().withCancellation();
      try {
        Iterator<NodeWatchResourcesResponse> stream = watch
            .call(() -> DRAResourceHealthGrpc.newBlockingStub(kubelet.channel(plugin.draSocket()))
                .nodeWatchResources(NodeWatchResourcesRequest.getDefaultInstance()));

        NodeWatchResourcesResponse first = stream.next();
        assertThat(first.getDevicesList()).hasSize(2);
        assertThat(first.getDevices(0).getDevice().getDeviceName()).isEqualTo("gpu-0");
        assertThat(first.getDevices(0).getHealth()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(first.getDevices(0).getLastUpdatedTime()).isEqualTo(1_800_000_000L);
        assertThat(first.getDevices(1).getHealthCheckTimeoutSeconds()).isEqualTo(60);

        plugin.deviceHealth().report(DeviceHealth.unhealthy("node-1", "gpu-1", "x".repeat(2000)));
        NodeWatchResourcesResponse second = stream.next();
        assertThat(second.getDevicesList()).as("always the complete list").hasSize(2);
        assertThat(second.getDevices(1).getHealth()).isEqualTo(HealthStatus.UNHEALTHY);
        assertThat(second.getDevices(1).getMessage()).hasSize(1024).endsWith("...");

        plugin.deviceHealth().remove("node-1", "gpu-0");
        assertThat(stream.next().getDevicesList()).singleElement()
            .satisfies(d -> assertThat(d.getDevice().getDeviceName()).isEqualTo("gpu-1"));
      } catch (Exception e) {
        throw new AssertionError(e);
      } finally {
        watch.cancel(null);
      }
    }
  }

  @Test
  void v1alpha1ClientsGetTheSameStreamAndUnchangedHealthIsResentPeriodically() throws Exception {
    try (KubeletPlugin plugin = TestPlugins.builder(
        new RecordingDriver(DRIVER).withHealth(), client, root)
        .health(h -> h.withRefreshInterval(Duration.ofMillis(200))).start()) {
      plugin.deviceHealth().replaceAll(java.util.List.of(DeviceHealth.healthy("node-1", "gpu-0")));
      Context.CancellableContext watch = Context.current().withCancellation();
      try {
        var stream = watch
            .call(() -> io.github.dra4j.kubelet.wire.health.v1alpha1.DRAResourceHealthGrpc
                .newBlockingStub(kubelet.channel(plugin.draSocket()))
                .nodeWatchResources(
                    io.github.dra4j.kubelet.wire.health.v1alpha1.NodeWatchResourcesRequest
                        .getDefaultInstance()));
        for (int i = 0; i < 3; i++) {
          assertThat(stream.next().getDevices(0).getHealth())
              .isEqualTo(io.github.dra4j.kubelet.wire.health.v1alpha1.HealthStatus.HEALTHY);
        }
      } finally {
        watch.cancel(null);
      }
      await().atMost(Duration.ofSeconds(30)).untilAsserted(
          () -> assertThat(((DeviceHealthBoard) plugin.deviceHealth()).subscriberCount()).isZero());
    }
  }

  @Test
  void aDriverWithoutHealthServesNoHealthStream() {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .start()) {
      assertThatThrownBy(plugin::deviceHealth).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("does not report device health");
      assertThatThrownBy(
          () -> DRAResourceHealthGrpc.newBlockingStub(kubelet.channel(plugin.draSocket()))
              .nodeWatchResources(NodeWatchResourcesRequest.getDefaultInstance()).next())
          .isInstanceOfSatisfying(StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
    }
  }
}
