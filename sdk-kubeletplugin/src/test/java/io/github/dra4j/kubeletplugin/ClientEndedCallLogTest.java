package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.testing.kubelet.RawGrpcConnection;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A call its client ended (cancelled, disconnected, let its deadline pass, half-closed without a
 * request) is the client's doing, not a failure of the plugin: it is logged at INFO, never at
 * ERROR, so that the plugin's error log stays for its own failures.
 */
class ClientEndedCallLogTest extends PluginTestBase {

  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger sdk = (Logger) LoggerFactory.getLogger("io.github.dra4j");
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch started = new CountDownLatch(1);
  private KubeletPlugin plugin;
  private String uid;

  @BeforeEach
  void start() {
    RecordingDriver driver = new RecordingDriver(DRIVER).answering(claim -> {
      started.countDown();
      // A slow prepare, longer than the client waits: it answers once released, or once the
      // call's gRPC context says the client has ended it.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (release.getCount() > 0 && !Context.current().isCancelled()
          && System.nanoTime() < deadline) {
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      return null;
    });
    plugin = TestPlugins.builder(driver, client, root).start();
    uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "slow", DRIVER))
        .getMetadata().getUid();
    log.start();
    sdk.addAppender(log);
  }

  @AfterEach
  void stop() {
    sdk.detachAppender(log);
    release.countDown();
    plugin.close();
  }

  private String errors() {
    return log.list.stream().filter(e -> e.getLevel() == Level.ERROR)
        .map(ILoggingEvent::getFormattedMessage).toList().toString();
  }

  @Test
  void aCallWhoseDeadlinePassedIsLoggedAtInfoNotError() throws Exception {
    assertThatThrownBy(() -> DRAPluginGrpc.newBlockingStub(kubelet.channel(plugin.draSocket()))
        .withDeadlineAfter(300, TimeUnit.MILLISECONDS)
        .nodePrepareResources(NodePrepareResourcesRequest.newBuilder()
            .addClaims(claim("default", "slow", uid)).build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(
            e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
    // The driver answers when the deadline has cancelled the call on the plugin's side too.

    await().atMost(Duration.ofSeconds(10)).until(() -> log.list.stream().anyMatch(
        e -> e.getFormattedMessage().startsWith("handling request ended before its answer")));
    Thread.sleep(300); // whatever else the late answer logs
    assertThat(errors()).isEqualTo("[]");
  }

  @Test
  void aCallCancelledByItsClientIsLoggedAtInfoNotError() throws Exception {
    try (RawGrpcConnection connection = RawGrpcConnection.open(plugin.draSocket()).handshake()) {
      int call = connection.startCall(
          "/k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources");
      connection.sendMessage(call, NodePrepareResourcesRequest.newBuilder()
          .addClaims(claim("default", "slow", uid)).build().toByteArray(), true);
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      connection.cancel(call); // the driver answers when the cancellation reaches it
    }

    await().atMost(Duration.ofSeconds(10))
        .until(() -> log.list.stream().anyMatch(
            e -> e.getFormattedMessage().startsWith("handling request ended before its answer")
                && e.getLevel() == Level.INFO));
    Thread.sleep(300);
    assertThat(errors()).isEqualTo("[]");
  }

  @Test
  void aCallCancelledBeforeItsRequestIsLoggedAtInfoNotError() throws Exception {
    try (RawGrpcConnection connection = RawGrpcConnection.open(plugin.draSocket()).handshake()) {
      int call = connection.startCall(
          "/k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources");
      connection.cancel(call);

      await().atMost(Duration.ofSeconds(10))
          .until(() -> log.list.stream().anyMatch(
              e -> e.getFormattedMessage().startsWith("handling request ended before its answer")
                  && e.getLevel() == Level.INFO));
    }
    assertThat(errors()).isEqualTo("[]");
  }

  @Test
  void aCallHalfClosedWithoutARequestIsTheClientsErrorNotThePlugins() throws Exception {
    try (RawGrpcConnection connection = RawGrpcConnection.open(plugin.draSocket()).handshake()) {
      connection.callWithoutRequest(
          "/k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources");

      await().atMost(Duration.ofSeconds(10))
          .until(() -> log.list.stream()
              .anyMatch(e -> e.getFormattedMessage()
                  .equals("request refused: the client half-closed the call"
                      + " without sending a request (INTERNAL Half-closed without a request)")
                  && e.getLevel() == Level.INFO));
    }
    assertThat(errors()).isEqualTo("[]");
  }
}
