package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.resourceslice.PoolValidationException;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code publishResources} and the ResourceSlice controller behind it: the first call starts the
 * controller with the Node as the slices' owner and later calls update it, publishing errors
 * reach the driver as recoverable, publishing needs a node name, and closing the plugin stops it.
 */
class PublishResourcesTest {

  @TempDir
  Path root;
  private InMemoryApiServer server;
  private KubernetesClient client;
  private String nodeUid;

  @BeforeEach
  void startServer() {
    server = InMemoryApiServer.builder().build().start();
    client = server.client();
    nodeUid = client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1")
        .endMetadata().build()).create().getMetadata().getUid();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private static DriverResources gpus(int count) {
    List<Device> devices = IntStream.range(0, count)
        .mapToObj(i -> new DeviceBuilder().withName("gpu-" + i).build()).toList();
    return DriverResources.of("node-1", Pool.builder().devices(devices).build());
  }

  private List<ResourceSlice> slices() {
    return client.dynamicResourceAllocation().v1().resourcesSlices().list().getItems();
  }

  @Test
  void firstCallStartsTheControllerWithTheNodeAsOwnerAndLaterCallsUpdate() {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .slices(s -> s.withSyncDelay(Duration.ofMillis(100))).start()) {
      plugin.publishResources(gpus(2));

      await().atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(slices()).singleElement().satisfies(slice -> {
            assertThat(slice.getSpec().getDriver()).isEqualTo(DRIVER);
            assertThat(slice.getSpec().getNodeName()).isEqualTo("node-1");
            assertThat(slice.getSpec().getDevices()).hasSize(2);
            assertThat(slice.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
              assertThat(o.getKind()).isEqualTo("Node");
              assertThat(o.getName()).isEqualTo("node-1");
              assertThat(o.getUid()).as("looked up, since no node UID was given")
                  .isEqualTo(nodeUid);
            });
          }));

      plugin.publishResources(gpus(3));

      await().atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(slices()).singleElement()
              .satisfies(s -> assertThat(s.getSpec().getDevices()).hasSize(3)));
      assertThat(plugin.sliceStats().creates()).isEqualTo(1);
      assertThat(plugin.sliceStats().updates()).isEqualTo(1);
    }
  }

  @Test
  void publishingErrorsReachTheDriverAsRecoverable() {
    RecordingDriver driver = new RecordingDriver(DRIVER);
    Device twice = new DeviceBuilder().withName("gpu-0").build();
    try (KubeletPlugin plugin = TestPlugins.builder(driver, client, root).start()) {
      plugin.publishResources(
          DriverResources.of("node-1", Pool.builder().devices(List.of(twice, twice)).build()));

      await().atMost(Duration.ofSeconds(30)).until(() -> !driver.errors().isEmpty());
      var error = driver.errors().get(0);
      assertThat(RecoverableException.isRecoverable(error.getKey())).isTrue();
      assertThat(error.getKey().getCause()).isInstanceOf(PoolValidationException.class);
      assertThat(error.getKey()).hasMessageContaining("gpu-0");
    }
  }

  @Test
  void publishingNeedsANodeName() {
    try (KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .nodeName("").start()) {
      assertThatThrownBy(() -> plugin.publishResources(gpus(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("no NodeName was set to publish resources");
    }
  }

  @Test
  void closingStopsPublishing() {
    KubeletPlugin plugin = TestPlugins.builder(new RecordingDriver(DRIVER), client, root)
        .slices(s -> s.withSyncDelay(Duration.ofMillis(100))).start();
    plugin.publishResources(gpus(1));
    await().atMost(Duration.ofSeconds(30)).until(() -> slices().size() == 1);

    plugin.close();

    assertThatThrownBy(() -> plugin.publishResources(gpus(2)))
        .hasMessage("the plugin is closed; cannot publish resources");
  }
}
