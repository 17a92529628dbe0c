package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.health.v1.DRAResourceHealthGrpc;
import io.github.dra4j.kubelet.wire.health.v1.HealthStatus;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesRequest;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import io.github.dra4j.kubeletplugin.internal.health.DeviceHealthBoard;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.testing.kubelet.RawGrpcConnection;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Device health streams whose clients never read, while device health keeps changing: they are
 * dropped once they leave an update unread for three refresh intervals, never hold more than one
 * message each meanwhile, and a watcher that reads, and the kubelet's calls, go on as before.
 */
class SlowHealthWatcherTest extends PluginTestBase {

  private static final String WATCH = "/" + ServiceNames.HEALTH_V1 + "/NodeWatchResources";

  private KubeletPlugin plugin;
  private final List<AutoCloseable> closing = new ArrayList<>();

  @BeforeEach
  void start() {
    plugin = TestPlugins.builder(new RecordingDriver(DRIVER).withHealth(), client, root)
        .health(h -> h.withRefreshInterval(Duration.ofMillis(200))) // a stream may stall 600 ms
        .start();
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable resource : closing) {
      resource.close();
    }
    plugin.close();
  }

  private int subscribers() {
    return ((DeviceHealthBoard) plugin.deviceHealth()).subscriberCount();
  }

  /** Reports all eight GPUs with a long message, one of them flipping: an 8 KB snapshot. */
  private void reportChange(int round) {
    List<DeviceHealth> devices = new ArrayList<>();
    for (int gpu = 0; gpu < 8; gpu++) {
      boolean sick = gpu == round % 8;
      devices.add(new DeviceHealth("node-1", "gpu-" + gpu,
          sick ? HealthState.UNHEALTHY : HealthState.HEALTHY, java.time.Instant.now(), null,
          (sick ? "round " + round + " " : "") + "x".repeat(1000)));
    }
    plugin.deviceHealth().replaceAll(devices);
  }

  @Test
  void watchersThatNeverReadAreDroppedAndAReadingOneGetsTheLatestHealth() throws Exception {
    ManagedChannel reader = kubelet.channel(plugin.draSocket());
    Supplier<Optional<NodeWatchResourcesResponse>> latest = kubelet.watchHealth(reader);
    RawGrpcConnection stalled = RawGrpcConnection.open(plugin.draSocket()).handshake();
    closing.add(stalled);
    for (int i = 0; i < 8; i++) {
      stalled.sendMessage(stalled.startCall(WATCH), new byte[0], true);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> subscribers() == 9);

    // 100 changes of 8 KB over 2 s: 800 KB for each stream that does not read.
    for (int round = 0; round < 100; round++) {
      reportChange(round);
      Thread.sleep(20);
    }

    await().atMost(Duration.ofSeconds(10)).untilAsserted(
        () -> assertThat(subscribers()).as("only the reading watcher is left").isEqualTo(1));
    Counter dropped = plugin.meterRegistry().find("dra4j.plugin.refusals")
        .tag("reason", "slow_reader").counter();
    assertThat(dropped).isNotNull();
    assertThat(dropped.count()).isEqualTo(8);
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      var last = latest.get().orElseThrow().getDevices(99 % 8);
      assertThat(last.getHealth()).isEqualTo(HealthStatus.UNHEALTHY);
      assertThat(last.getMessage()).startsWith("round 99 ");
    });
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "c", DRIVER))
        .getMetadata().getUid();
    assertThat(kubelet.prepare(plugin.draSocket(), claim("default", "c", uid))
        .getClaimsOrThrow(uid).getError()).isEmpty();
  }

  @Test
  void moreHealthStreamsThanTheLimitAreRefused() {
    List<Status> ended = new CopyOnWriteArrayList<>();
    for (int channel = 0; channel < 3; channel++) {
      ManagedChannel connection = kubelet.channel(plugin.draSocket());
      for (int i = 0; i < 6; i++) {
        DRAResourceHealthGrpc.newStub(connection).nodeWatchResources(
            NodeWatchResourcesRequest.getDefaultInstance(), new StreamObserver<>() {
              @Override
              public void onNext(NodeWatchResourcesResponse value) {}

              @Override
              public void onError(Throwable t) {
                ended.add(Status.fromThrowable(t));
              }

              @Override
              public void onCompleted() {}
            });
      }
    }

    await().atMost(Duration.ofSeconds(10)).until(() -> ended.size() == 2);
    assertThat(ended).allSatisfy(status -> {
      assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      assertThat(status.getDescription()).isEqualTo("16 device health streams are open, the"
          + " most the plugin serves at once");
    });
    assertThat(subscribers()).isEqualTo(16);
  }
}
