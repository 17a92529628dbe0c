package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static io.github.dra4j.testing.kubelet.RawGrpcConnection.heldOnceAccepted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.testing.kubelet.RawGrpcConnection;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that open connections and hold them, on every server the plugin runs (DRA socket,
 * registration socket, liveness port), with the default limits: the connections over each
 * server's limit are closed at once, those that never finish their handshake are closed after its
 * timeout, requests that never finish cannot make the server hold more than its limit, and the
 * kubelet's own connection is answered throughout.
 */
class ConnectionLimitsTest extends PluginTestBase {

  /** How long the plugin is given to take every connection of a flood from its accept queue. */
  private static final Duration SETTLE = Duration.ofSeconds(10);

  private static final String PREPARE = "/k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/"
      + "NodePrepareResources";

  private KubeletPlugin plugin;
  private String uid;
  private final List<RawGrpcConnection> flood = new ArrayList<>();

  @BeforeEach
  void start() {
    plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .livenessProbe(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .start();
    uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "good", DRIVER))
        .getMetadata().getUid();
  }

  @AfterEach
  void stop() throws IOException {
    for (RawGrpcConnection connection : flood) {
      connection.close();
    }
    plugin.close();
  }

  /** Prepares over one connection kept open, as the kubelet keeps one per plugin. */
  private NodePrepareResourcesResponse prepare(ManagedChannel kubeletConnection) {
    return DRAPluginGrpc.newBlockingStub(kubeletConnection).withDeadlineAfter(10, TimeUnit.SECONDS)
        .nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
            .addClaims(claim("default", "good", uid)).build());
  }

  private InetSocketAddress livenessAddress() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(),
        plugin.livenessPort().orElseThrow());
  }

  private ServingStatus probe() {
    ManagedChannel channel = NettyChannelBuilder.forAddress(livenessAddress()).usePlaintext()
        .build();
    try {
      return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .check(HealthCheckRequest.newBuilder().setService(KubeletPlugin.LIVENESS_SERVICE)
              .build())
          .getStatus();
    } finally {
      channel.shutdownNow();
    }
  }

  private List<RawGrpcConnection> open(int count, Opener opener) throws IOException {
    List<RawGrpcConnection> opened = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      opened.add(opener.open());
    }
    flood.addAll(opened);
    return opened;
  }

  private interface Opener {
    RawGrpcConnection open() throws IOException;
  }

  @Test
  void idleConnectionsOverEachServersLimitAreClosedWhileTheKubeletIsAnswered() throws Exception {
    ManagedChannel kubelet = this.kubelet.channel(plugin.draSocket());
    assertThat(prepare(kubelet).getClaimsOrThrow(uid).getError()).isEmpty();

    List<RawGrpcConnection> dra = open(64, () -> RawGrpcConnection.open(plugin.draSocket()));
    List<RawGrpcConnection> registration = open(64,
        () -> RawGrpcConnection.open(plugin.registrationSocket()));
    List<RawGrpcConnection> liveness = open(64, () -> RawGrpcConnection.open(livenessAddress()));

    // The kubelet's connection holds one of the DRA socket's 16 places.
    assertThat(heldOnceAccepted(dra, 15, SETTLE)).as("DRA socket").isEqualTo(15);
    assertThat(heldOnceAccepted(registration, 4, SETTLE)).as("registration socket").isEqualTo(4);
    assertThat(heldOnceAccepted(liveness, 8, SETTLE)).as("liveness port").isEqualTo(8);
    assertThat(prepare(kubelet).getClaimsOrThrow(uid).getError()).as("answered during the flood")
        .isEmpty();
    Counter refused = plugin.meterRegistry().find("dra4j.plugin.refusals")
        .tag("server", "dra").tag("reason", "connections").counter();
    assertThat(refused).isNotNull();
    assertThat(refused.count()).isEqualTo(64 - 15);

    for (RawGrpcConnection connection : flood) {
      connection.close();
    }
    await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() -> {
      assertThat(this.kubelet.getInfo(plugin.registrationSocket()).getName()).isEqualTo(DRIVER);
      assertThat(probe()).isEqualTo(ServingStatus.SERVING);
    });
    assertThat(prepare(kubelet).getClaimsOrThrow(uid).getError()).as("answered after").isEmpty();
  }

  @Test
  void connectionsThatNeverSendTheHandshakeAreClosedAfterItsTimeout() throws Exception {
    List<RawGrpcConnection> idle = open(8, () -> RawGrpcConnection.open(livenessAddress()));
    long start = System.nanoTime();

    for (RawGrpcConnection connection : idle) {
      assertThat(connection.awaitClosedByServer(Duration.ofSeconds(15)))
          .as("closed by the server").isTrue();
    }

    // The liveness port allows 5 s (ServerLimits.LIVENESS_PROBE); then the probe gets in again.
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofSeconds(4),
        Duration.ofSeconds(12));
    assertThat(probe()).isEqualTo(ServingStatus.SERVING);
  }

  @Test
  void requestsThatNeverFinishCannotMakeTheServerHoldMoreThanItsLimit() throws Exception {
    ManagedChannel kubelet = this.kubelet.channel(plugin.draSocket());
    assertThat(prepare(kubelet).getClaimsOrThrow(uid).getError()).isEmpty();
    List<RawGrpcConnection> slow = open(2, () -> RawGrpcConnection.open(plugin.draSocket())
        .handshake());

    // 16 requests of 512 KiB, each sent up to 400 KiB and never finished: 6.4 MiB, where the
    // DRA socket holds at most 4 MiB of requests still arriving.
    byte[] start = new byte[400 * 1024];
    for (RawGrpcConnection connection : slow) {
      for (int i = 0; i < 8; i++) {
        int call = connection.startCall(PREPARE);
        connection.sendMessageStart(call, 512 * 1024, start, false);
      }
    }

    Counter refused = plugin.meterRegistry().find("dra4j.plugin.refusals")
        .tag("server", "dra").tag("reason", "pending_requests").counter();
    assertThat(refused).as("requests refused over the limit").isNotNull();
    assertThat(refused.count()).isBetween(6.0, 12.0);
    assertThat(prepare(kubelet).getClaimsOrThrow(uid).getError()).as("answered meanwhile")
        .isEmpty();
  }
}
