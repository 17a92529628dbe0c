package io.github.dra4j.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.testsupport.NodeWithKubelet;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A claim driver behind the lifecycle reaches the plugin's device health, health taints and
 * publishing through its {@link io.github.dra4j.kubeletplugin.PluginContext}, against the
 * in-memory API server with the fake kubelet watching the health stream.
 */
class ClaimDriverHealthTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir
  Path root;
  private NodeWithKubelet node;

  @BeforeEach
  void start() throws Exception {
    node = NodeWithKubelet.start(root);
  }

  @AfterEach
  void stop() {
    node.close();
  }

  @Test
  void aClaimDriverReportsHealthAndPublishesThroughItsContext() {
    TaintingDriver driver = new TaintingDriver();
    try (KubeletPlugin plugin = TestPlugins.builder(driver.lifecycle(), node.client(), root)
        .slices(s -> s.withSyncDelay(Duration.ofMillis(100)))
        .health(h -> h.withTaintDelay(Duration.ZERO)).start()) {
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(node.taints("gpu-1")).singleElement().satisfies(taint -> {
          assertThat(taint.getKey()).isEqualTo("example.com/broken");
          assertThat(taint.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(node.taints("gpu-0")).isEmpty();
      });
      assertThat(plugin.nodeName()).isEqualTo("node-1");

      driver.context().deviceHealth().report(DeviceHealth.healthy("node-1", "gpu-1"));
      await().atMost(WAIT).untilAsserted(() -> assertThat(node.taints("gpu-1")).isEmpty());
      driver.context().publishResources(DriverResources.of("node-1", Pool.builder()
          .devices(IntStream.range(0, 3)
              .mapToObj(i -> new DeviceBuilder().withName("gpu-" + i).build()).toList())
          .devicesMayBeTainted(true).build()));
      await().atMost(WAIT).untilAsserted(() -> assertThat(node.device("gpu-2")).isNotNull());
    }
  }
}
