package io.github.dra4j.kubeletplugin;

import static io.github.dra4j.kubeletplugin.testsupport.TestPlugins.DRIVER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.kubeletplugin.testsupport.NodeWithKubelet;
import io.github.dra4j.kubeletplugin.testsupport.RecordingDriver;
import io.github.dra4j.kubeletplugin.testsupport.TestPlugins;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.testing.kubelet.DeviceHealthStatus;
import io.github.dra4j.testing.kubelet.FakeKubelet;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health taints against the in-memory API server (which enforces kube-apiserver's rules for
 * device taints) with the fake kubelet watching the health stream: a device reported unhealthy
 * is tainted in the published slice with the driver's effect while the kubelet sees it unhealthy,
 * loses the taint when healthy again, taints the driver set itself survive, the taints survive
 * the driver's own publishes, and a burst of changes is one slice write.
 */
class HealthTaintsTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String UNHEALTHY_KEY = DRIVER + "/unhealthy";
  private static final DeviceTaint MAINTENANCE = new DeviceTaintBuilder()
      .withKey(DRIVER + "/maintenance").withValue("planned").withEffect("NoSchedule").build();

  @TempDir
  Path root;
  private NodeWithKubelet node;
  private KubernetesClient client;
  private FakeKubelet kubelet;

  @BeforeEach
  void start() throws Exception {
    node = NodeWithKubelet.start(root);
    client = node.client();
    kubelet = node.kubelet();
  }

  @AfterEach
  void stop() {
    node.close();
  }

  private KubeletPluginBuilder builder(DraDriver driver) {
    return TestPlugins.builder(driver, client, root)
        .slices(s -> s.withSyncDelay(Duration.ofMillis(100)));
  }

  private static DriverResources pool(int count, Device... extra) {
    List<Device> devices = new ArrayList<>(IntStream.range(0, count)
        .mapToObj(i -> new DeviceBuilder().withName("gpu-" + i).build()).toList());
    devices.addAll(List.of(extra));
    return DriverResources.of("node-1",
        Pool.builder().devices(devices).devicesMayBeTainted(true).build());
  }

  private Device device(String name) {
    return node.device(name);
  }

  private List<DeviceTaint> taints(String name) {
    return node.taints(name);
  }

  private DeviceHealthStatus kubeletSees(String device) {
    return kubelet.deviceHealth(DRIVER).stream().filter(h -> h.deviceName().equals(device))
        .findFirst().map(h -> h.state()).orElse(DeviceHealthStatus.UNKNOWN);
  }

  @Test
  void anUnhealthyDeviceIsTaintedWithTheChosenEffectUntilItIsHealthyAgain() {
    try (KubeletPlugin plugin = builder(new RecordingDriver(DRIVER).withHealth())
        .health(h -> h.withTaints(HealthTaints.whenUnhealthy(TaintEffect.NO_EXECUTE))
            .withTaintDelay(Duration.ofMillis(50)))
        .start()) {
      kubelet.awaitRegistered(plugin.registrationSocket(), WAIT);
      Device inMaintenance = new DeviceBuilder().withName("gpu-9").withTaints(MAINTENANCE)
          .build();
      plugin.publishResources(pool(2, inMaintenance));
      plugin.deviceHealth().report(DeviceHealth.healthy("node-1", "gpu-0"),
          DeviceHealth.healthy("node-1", "gpu-1"), DeviceHealth.healthy("node-1", "gpu-9"));
      await().atMost(WAIT).untilAsserted(() -> assertThat(taints("gpu-9")).hasSize(1));

      plugin.deviceHealth().report(DeviceHealth.unhealthy("node-1", "gpu-1", "fell off the bus"),
          DeviceHealth.unhealthy("node-1", "gpu-9", "too hot"));

      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(taints("gpu-1")).singleElement().satisfies(taint -> {
          assertThat(taint.getKey()).isEqualTo(UNHEALTHY_KEY);
          assertThat(taint.getValue()).isEqualTo("Unhealthy");
          assertThat(taint.getEffect()).isEqualTo("NoExecute");
          assertThat(taint.getTimeAdded()).as("set by the API server").isNotNull();
        });
        assertThat(taints("gpu-9")).extracting(DeviceTaint::getKey)
            .as("the driver's own taint stays").containsExactly(DRIVER + "/maintenance",
                UNHEALTHY_KEY);
        assertThat(taints("gpu-0")).isEmpty();
        assertThat(kubeletSees("gpu-1")).isEqualTo(DeviceHealthStatus.UNHEALTHY);
      });
      String added = taints("gpu-1").get(0).getTimeAdded();

      // The driver publishes again (one more device): the health taints stay, with their time.
      plugin.publishResources(pool(3, inMaintenance));
      await().atMost(WAIT).untilAsserted(() -> assertThat(device("gpu-2")).isNotNull());
      assertThat(taints("gpu-1")).singleElement()
          .satisfies(taint -> assertThat(taint.getTimeAdded()).isEqualTo(added));
      assertThat(taints("gpu-9")).hasSize(2);

      plugin.deviceHealth().report(DeviceHealth.healthy("node-1", "gpu-1"),
          DeviceHealth.healthy("node-1", "gpu-9"));
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(taints("gpu-1")).isEmpty();
        assertThat(taints("gpu-9")).singleElement()
            .satisfies(taint -> assertThat(taint.getKey()).isEqualTo(DRIVER + "/maintenance"));
        assertThat(kubeletSees("gpu-1")).isEqualTo(DeviceHealthStatus.HEALTHY);
      });
      assertThat(device("gpu-9").getTaints().get(0).getTimeAdded())
          .as("the driver's taint was never removed").isNotNull();
    }
  }

  @Test
  void aBurstOfHealthChangesIsOnePublish() {
    try (KubeletPlugin plugin = builder(new RecordingDriver(DRIVER).withHealth())
        .health(h -> h.withTaints(HealthTaints.whenUnhealthy(TaintEffect.NO_SCHEDULE))
            .withTaintDelay(Duration.ofSeconds(2)))
        .start()) {
      plugin.publishResources(pool(10));
      await().atMost(WAIT).until(() -> plugin.sliceStats().creates() == 1);
      long updates = plugin.sliceStats().updates();

      // 100 reports, one device at a time, each device flipping back and forth; at the end the
      // even devices are unhealthy.
      for (int round = 0; round < 10; round++) {
        for (int i = 0; i < 10; i++) {
          boolean sick = (round + i) % 2 == 1;
          plugin.deviceHealth().report(sick
              ? DeviceHealth.unhealthy("node-1", "gpu-" + i, "round " + round)
              : DeviceHealth.healthy("node-1", "gpu-" + i));
        }
      }

      await().atMost(WAIT).untilAsserted(() -> {
        for (int i = 0; i < 10; i++) {
          assertThat(taints("gpu-" + i)).as("gpu-%d", i).hasSize(i % 2 == 0 ? 1 : 0);
        }
      });
      assertThat(plugin.sliceStats().updates() - updates).as("slice updates").isEqualTo(1);
    }
  }

  @Test
  void badHealthTaintSettingsAreRefusedNamingThem() {
    assertThatThrownBy(() -> HealthTaints.whenUnhealthy("gpu.example.com/not ok",
        TaintEffect.NO_SCHEDULE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("health taint key \"gpu.example.com/not ok\" is not a qualified"
            + " name");
    assertThatThrownBy(() -> builder(new RecordingDriver(DRIVER))
        .health(h -> h.withTaints(HealthTaints.whenUnhealthy(TaintEffect.NO_SCHEDULE))).start())
        .isInstanceOf(PluginStartException.class)
        .hasMessageContaining("health taints need a driver that reports device health");
    assertThatThrownBy(() -> builder(new RecordingDriver(DRIVER))
        .health(h -> h.withTaintDelay(Duration.ofSeconds(-1))))
        .hasMessageContaining("healthTaintDelay");
  }

  @Test
  void theHealthGaugeShowsEachReportedDeviceInThePrometheusText() throws Exception {
    try (KubeletPlugin plugin = builder(new RecordingDriver(DRIVER).withHealth())
        .metricsEndpoint(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).start()) {
      plugin.deviceHealth().report(DeviceHealth.healthy("node-1", "gpu-0"),
          DeviceHealth.unhealthy("node-1", "gpu-1", "fell off the bus"));
      String series = "dra4j_plugin_device_health{device=\"gpu-1\",driver_name=\"" + DRIVER
          + "\",pool=\"node-1\",state=\"";

      String text = scrape(plugin.metricsPort().getAsInt());
      assertThat(text).contains(series + "unhealthy\"} 1", series + "healthy\"} 0",
          series + "unknown\"} 0", "device=\"gpu-0\"");
      assertThat(text.lines().filter(l -> l.startsWith("# HELP dra4j_plugin_device_health ")))
          .hasSize(1);

      plugin.deviceHealth().report(DeviceHealth.healthy("node-1", "gpu-1"));
      assertThat(scrape(plugin.metricsPort().getAsInt()))
          .contains(series + "unhealthy\"} 0", series + "healthy\"} 1");

      plugin.deviceHealth().remove("node-1", "gpu-1");
      assertThat(scrape(plugin.metricsPort().getAsInt())).as("gone with its device")
          .doesNotContain("device=\"gpu-1\"").contains("device=\"gpu-0\"");
      plugin.deviceHealth().replaceAll(List.of());
      assertThat(scrape(plugin.metricsPort().getAsInt()))
          .doesNotContain("dra4j_plugin_device_health{");
    }
  }

  private static String scrape(int port) throws Exception {
    HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(WAIT).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(200);
    return answer.body();
  }
}
