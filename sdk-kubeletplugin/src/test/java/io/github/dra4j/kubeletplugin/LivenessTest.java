package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The grpc.health.v1 liveness service on TCP, and detection of lost sockets. */
@EnableKubernetesMockClient(crud = true)
class LivenessTest {

  KubernetesClient client;
  @TempDir
  Path root;

  private static ServingStatus check(ManagedChannel channel, String service) {
    return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
  }

  @Test
  void servingWhileTheSocketsAreUpAndNotServingOnceOneIsGone() throws Exception {
    RecordingDriver driver = new RecordingDriver(DRIVER);
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root)
        .livenessProbe(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .sockets(s -> s.withCheckInterval(Duration.ofMillis(100)))
        .shutdown(s -> s.withFatalErrorPolicy(FatalErrorPolicy.REPORT))
        .start()) {
      ManagedChannel probe = NettyChannelBuilder
          .forAddress("127.0.0.1", plugin.livenessPort().orElseThrow()).usePlaintext().build();
      try {
        assertThat(check(probe, "")).isEqualTo(ServingStatus.SERVING);
        assertThat(check(probe, DRIVER)).isEqualTo(ServingStatus.SERVING);
        assertThat(check(probe, KubeletPlugin.LIVENESS_SERVICE))
            .isEqualTo(ServingStatus.SERVING);
        assertThatThrownBy(() -> check(probe, "other"))
            .isInstanceOfSatisfying(StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));

        Files.delete(plugin.draSocket());

        assertThat(check(probe, "")).isEqualTo(ServingStatus.NOT_SERVING);
        assertThat(check(probe, KubeletPlugin.LIVENESS_SERVICE))
            .isEqualTo(ServingStatus.NOT_SERVING);
        await().atMost(Duration.ofSeconds(30)).until(() -> !driver.errors().isEmpty());
        Thread.sleep(300); // several more check rounds: the failure must be reported only once
        assertThat(driver.errors()).singleElement().satisfies(error -> {
          assertThat(error.getValue()).isEqualTo("DRA gRPC server failed");
          assertThat(error.getKey()).hasMessageContaining(plugin.draSocket().toString());
          assertThat(RecoverableException.isRecoverable(error.getKey())).isFalse();
        });
      } finally {
        probe.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }
}
