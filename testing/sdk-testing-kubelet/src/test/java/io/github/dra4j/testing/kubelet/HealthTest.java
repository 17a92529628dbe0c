package io.github.dra4j.testing.kubelet;

import static io.github.dra4j.testing.kubelet.Poll.LONG;
import static io.github.dra4j.testing.kubelet.TestNode.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.kubelet.wire.health.v1alpha1.DeviceIdentifier;
import io.github.dra4j.kubelet.wire.health.v1alpha1.HealthStatus;
import io.github.dra4j.kubelet.wire.health.v1alpha1.NodeWatchResourcesResponse;
import io.grpc.BindableService;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The device health streams the kubelet opens to hand-made plugins that advertise one. */
class HealthTest extends NodeTest {

  /** A hand-made plugin advertising {@code services}, serving {@code endpointServices}. */
  private void rawPlugin(String[] services, BindableService... endpointServices) {
    Path endpoint = node.data.resolve("raw.sock");
    node.own(new UnixServer(endpoint, endpointServices));
    node.own(RawPlugin.serve(node.registry.resolve("raw-reg.sock"),
        RawPlugin.info(DRIVER, endpoint, services)));
  }

  private static NodeWatchResourcesResponse oneDevice(long timeoutSeconds, String message) {
    return NodeWatchResourcesResponse.newBuilder().addDevices(
        io.github.dra4j.kubelet.wire.health.v1alpha1.DeviceHealth.newBuilder()
            .setDevice(DeviceIdentifier.newBuilder().setPoolName("p").setDeviceName("d"))
            .setHealth(HealthStatus.HEALTHY)
            .setLastUpdatedTime(1_700_000_000L)
            .setHealthCheckTimeoutSeconds(timeoutSeconds)
            .setMessage(message))
        .build();
  }

  @Test
  void fallsBackToV1alpha1AndAppliesTheTimeoutAndTheMessageLimit() {
    FakeKubelet kubelet = node.kubelet(b -> b);
    rawPlugin(new String[] {"v1.DRAPlugin", "v1alpha1.DRAResourceHealth"},
        new RawHealthService(oneDevice(1, "x".repeat(2000)), 0));

    Poll.until(LONG, () -> assertThat(kubelet.deviceHealth(DRIVER)).singleElement()
        .satisfies(device -> {
          assertThat(device.poolName()).isEqualTo("p");
          assertThat(device.reportedState()).isEqualTo(DeviceHealthStatus.HEALTHY);
          assertThat(device.lastUpdated()).isEqualTo(Instant.ofEpochSecond(1_700_000_000L));
          assertThat(device.timeout()).isEqualTo(Duration.ofSeconds(1));
          assertThat(device.message()).hasSize(1024).endsWith("x...");
        }));
    // Not reported again within its own 1 s timeout: the kubelet no longer knows.
    Poll.until(LONG, () -> assertThat(kubelet.deviceHealth(DRIVER)).singleElement()
        .extracting(ObservedDeviceHealth::state).isEqualTo(DeviceHealthStatus.UNKNOWN));
    assertThat(kubelet.calls().entries(KubeletMethod.NODE_WATCH_RESOURCES)).first()
        .satisfies(call -> {
          assertThat(call.service()).isEqualTo("v1alpha1.DRAResourceHealth");
          assertThat(call.response()).isInstanceOf(NodeWatchResourcesResponse.class);
        });
  }

  @Test
  void anEndedStreamClearsTheHealthAndIsReopenedAfterTheRetryPeriod() {
    FakeKubelet kubelet = node.kubelet(b -> b.healthRetryPeriod(Duration.ofSeconds(3)));
    RawHealthService health = new RawHealthService(oneDevice(0, ""), 1);
    rawPlugin(new String[] {"v1.DRAPlugin", "v1alpha1.DRAResourceHealth"}, health);

    Poll.until(LONG, () -> assertThat(kubelet.deviceHealth(DRIVER)).hasSize(1));
    assertThat(kubelet.calls().entries(KubeletMethod.NODE_WATCH_RESOURCES)).first()
        .satisfies(call -> assertThat(call.status().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    health.endStreams();

    Poll.until(LONG, () -> assertThat(kubelet.deviceHealth(DRIVER)).isEmpty());
    Poll.until(LONG, () -> {
      assertThat(health.calls()).isEqualTo(3);
      assertThat(kubelet.deviceHealth(DRIVER)).hasSize(1);
    });
  }

  @Test
  void unimplementedHealthIsNotRetried() {
    FakeKubelet kubelet = node.kubelet(b -> b.healthRetryPeriod(Duration.ofMillis(100)));
    rawPlugin(new String[] {"v1.DRAPlugin", "v1.DRAResourceHealth"}, new RawDraService(
        request -> NodePrepareResourcesResponse.getDefaultInstance(),
        request -> NodeUnprepareResourcesResponse.getDefaultInstance()));

    Poll.until(LONG, () -> assertThat(kubelet.calls().entries(KubeletMethod.NODE_WATCH_RESOURCES))
        .singleElement()
        .satisfies(call -> assertThat(call.status().getCode())
            .isEqualTo(Status.Code.UNIMPLEMENTED)));
    Poll.holdsFor(Duration.ofMillis(800), () -> assertThat(
        kubelet.calls().entries(KubeletMethod.NODE_WATCH_RESOURCES)).hasSize(1));
  }
}
