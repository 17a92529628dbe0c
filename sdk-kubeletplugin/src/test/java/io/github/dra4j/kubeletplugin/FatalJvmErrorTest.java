package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static io.github.dra4j.testing.kubelet.KubeletClient.claim;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.kubeletplugin.testsupport.ClaimFixtures;
import io.github.dra4j.kubeletplugin.testsupport.PluginTestBase;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An {@link OutOfMemoryError} on a thread that serves the kubelet leaves a plugin that cannot be
 * trusted to serve: it is fatal, so the fatal-error policy ends the plugin (and with {@link
 * FatalErrorPolicy#EXIT} the process), instead of a plugin that holds its sockets and answers
 * nothing.
 */
class FatalJvmErrorTest extends PluginTestBase {

  @Test
  void anOutOfMemoryErrorWhileServingACallClosesThePlugin() throws Exception {
    OutOfMemoryError oom = new OutOfMemoryError("Java heap space (simulated)");
    RecordingDriver driver = new RecordingDriver(DRIVER).answering(claim -> {
      throw oom;
    });
    String uid = ClaimFixtures.store(client, ClaimFixtures.allocated("default", "c", DRIVER))
        .getMetadata().getUid();
    KubeletPlugin plugin = TestPlugins.builder(driver, client, root).start();
    try {
      assertThatThrownBy(() -> kubelet.prepare(plugin.draSocket(), claim("default", "c", uid)))
          .isInstanceOfSatisfying(StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN));

      CompletableFuture.runAsync(() -> {
        try {
          plugin.awaitTermination();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }).get(10, TimeUnit.SECONDS);
      assertThat(plugin.failure()).containsSame(oom);
      assertThat(driver.errors()).singleElement().satisfies(error -> {
        assertThat(error.getKey()).isSameAs(oom);
        assertThat(error.getValue()).isEqualTo("handling a"
            + " k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources call");
      });
      assertThat(plugin.draSocket()).doesNotExist();
    } finally {
      plugin.close();
    }
  }
}
