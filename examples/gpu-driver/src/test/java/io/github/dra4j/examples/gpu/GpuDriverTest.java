package io.github.dra4j.examples.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.examples.gpu.backend.SimulatedBackend;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.kubeletplugin.HealthState;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The driver on a simulated node: published devices, configuration, prepare, health. */
class GpuDriverTest {

  private static final String DRIVER = GpuDriver.DEFAULT_NAME;

  private SimulatedNode node;
  private RecordingSharingCommands sharing;
  private Path healthFile;
  private GpuDriver driver;
  private KubeletPlugin plugin;

  @BeforeEach
  void setUp() {
    node = SimulatedNode.start();
    sharing = new RecordingSharingCommands();
    healthFile = node.pluginDataDirectory(DRIVER).resolveSibling("gpu-health.json");
  }

  @AfterEach
  void tearDown() {
    if (driver != null) {
      driver.close();
    }
    node.close();
  }

  private void start(int gpus, DeviceLayout layout) throws Exception {
    start(gpus, layout, false);
  }

  private void start(int gpus, DeviceLayout layout, boolean deviceStatus) throws Exception {
    driver = GpuDriver.create(DRIVER, node.nodeName(), new SimulatedBackend(node.nodeName(), gpus,
        healthFile, Duration.ofMillis(50), sharing), layout, deviceStatus);
    plugin = node.startDriver(DRIVER, driver.lifecycle(),
        b -> b.apiServer(a -> a.withClaimStatus(deviceStatus)));
    driver.attach(plugin);
    node.createDeviceClass("gpu.example.com", "device.driver == '" + DRIVER + "'",
        "device.attributes['" + DRIVER + "'].type == 'gpu'");
    node.createDeviceClass("partition.gpu.example.com", "device.driver == '" + DRIVER + "'",
        "device.attributes['" + DRIVER + "'].type == 'partition'");
  }

  private Map<String, String> env(ContainerEdits edits) {
    return edits.env().stream().map(e -> e.split("=", 2))
        .collect(Collectors.toMap(e -> e[0], e -> e[1]));
  }

  @Test
  void publishesGpusWithStableUuidsAndPreparesOneWithItsEnvironment() throws Exception {
    start(2, DeviceLayout.WHOLE_GPUS);
    List<ResourceSlice> slices = node.awaitDevices(DRIVER, 2);
    Device gpu0 = slices.get(0).getSpec().getDevices().get(0);
    assertThat(gpu0.getName()).isEqualTo("gpu-0");
    assertThat(gpu0.getAttributes().get("type").getString()).isEqualTo("gpu");
    assertThat(gpu0.getAttributes().get("uuid").getString()).startsWith("GPU-");
    assertThat(gpu0.getAttributes().get("driverVersion").getVersion()).isEqualTo("1.0.0");
    assertThat(gpu0.getAttributes().get("resource.kubernetes.io/pciBusID").getString())
        .isEqualTo("0000:10:00.0");
    assertThat(gpu0.getCapacity().get("memory").getValue().toString()).isEqualTo("80Gi");

    ResourceClaim claim = node.allocate(node.createClaim("default", "one", "gpu",
        "gpu.example.com", 1));
    PrepareOutcome outcome = node.prepare(DRIVER, claim);
    assertThat(outcome.isSuccess()).as(outcome.toString()).isTrue();
    Map<String, String> env = env(node.containerEdits(outcome, claim));
    String device = outcome.devices(claim.getMetadata().getUid()).get(0).deviceName();
    String id = device.substring(4);
    assertThat(env).containsEntry("GPU_DEVICE_" + id, device)
        .containsEntry("GPU_DEVICE_" + id + "_SHARING_STRATEGY", "TimeSlicing")
        .containsEntry("GPU_DEVICE_" + id + "_TIMESLICE_INTERVAL", "Default")
        .containsEntry("GPU_DEVICE_" + id + "_RESOURCE_CLAIM", claim.getMetadata().getUid())
        .containsEntry("KUBERNETES_NODE_NAME", node.nodeName())
        .containsEntry("DRA_RESOURCE_DRIVER_NAME", DRIVER)
        .containsEntry("DRA_ADMIN_ACCESS", "false");
    assertThat(sharing.calls()).as("the default configuration leaves the GPU as it is").isEmpty();
    assertThat(node.unprepare(DRIVER, claim).isSuccess()).isTrue();
    assertThat(sharing.calls()).isEmpty();
  }

  @Test
  void withDeviceStatusTheClaimTellsWhichGpuItGotAndUnprepareClearsIt() throws Exception {
    start(2, DeviceLayout.WHOLE_GPUS, true);
    node.awaitDevices(DRIVER, 2);
    ResourceClaim claim = node.allocate(node.createClaim("default", "status", "gpu",
        "gpu.example.com", 1));
    String device = claim.getStatus().getAllocation().getDevices().getResults().get(0)
        .getDevice();

    assertThat(node.prepare(DRIVER, claim).isSuccess()).isTrue();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      var devices = node.client().resource(claim).get().getStatus().getDevices();
      assertThat(devices).singleElement().satisfies(entry -> {
        assertThat(entry.getDriver()).isEqualTo(DRIVER);
        assertThat(entry.getDevice()).isEqualTo(device);
        assertThat(Serialization.asJson(entry.getData()))
            .contains("\"uuid\":\"" + driver.catalog().device(device).orElseThrow().uuid())
            .contains("\"productName\":\"dra4j SimGPU 80GB\"");
      });
    });
    assertThat(node.unprepare(DRIVER, claim).isSuccess()).isTrue();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(
        () -> assertThat(node.client().resource(claim).get().getStatus().getDevices()).isEmpty());
  }

  @Test
  void uuidsAreStableAcrossRestartsAndDifferPerNode() throws Exception {
    SimulatedBackend first = new SimulatedBackend("node-a", 2, healthFile);
    SimulatedBackend again = new SimulatedBackend("node-a", 2, healthFile);
    SimulatedBackend other = new SimulatedBackend("node-b", 2, healthFile);
    try (first; again; other) {
      assertThat(again.discovery().discover()).isEqualTo(first.discovery().discover());
      assertThat(other.discovery().discover().get(0).uuid())
          .isNotEqualTo(first.discovery().discover().get(0).uuid());
    }
  }

  @Test
  void aClaimConfigurationSetsTheSharingAndAnInvalidOneFailsOnlyItsClaim() throws Exception {
    start(2, DeviceLayout.WHOLE_GPUS);
    node.awaitDevices(DRIVER, 2);
    ResourceClaim good = node.allocate(node.createClaim(withConfig("long", "gpu",
        "{\"apiVersion\":\"gpu.resource.dra4j.io/v1alpha1\",\"kind\":\"GpuConfig\","
            + "\"sharing\":{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":"
            + "{\"interval\":\"Long\"}}}")));
    ResourceClaim bad = node.allocate(node.createClaim(withConfig("bad", "gpu",
        "{\"apiVersion\":\"gpu.resource.dra4j.io/v1alpha1\",\"kind\":\"GpuConfig\","
            + "\"sharing\":{\"strategy\":\"TimeSlicing\",\"mpsConfig\":"
            + "{\"defaultActiveThreadPercentage\":20}}}")));

    PrepareOutcome outcome = node.prepare(DRIVER, good, bad);

    assertThat(outcome.result(good.getMetadata().getUid()).isFailed()).isFalse();
    assertThat(outcome.result(bad.getMetadata().getUid()).error())
        .contains("sharing.mpsConfig", "only with strategy MPS");
    Map<String, String> env = env(node.containerEdits(outcome, good));
    assertThat(env).containsValue("Long");
    // The failed claim changed nothing before it failed, so its rollback touches nothing.
    assertThat(sharing.calls()).containsExactly(
        "apply TimeSlicing[interval=Long] [" + uuidOf(good) + "]");
  }

  private String uuidOf(ResourceClaim claim) {
    String device = claim.getStatus().getAllocation().getDevices().getResults().get(0).getDevice();
    return driver.catalog().device(device).orElseThrow().gpu().uuid();
  }

  private ResourceClaim withConfig(String name, String request, String parameters) {
    return new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName(request).withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest()
        .addNewConfig().withRequests(request).withNewOpaque().withDriver(DRIVER)
        .withParameters(Serialization.unmarshal(parameters, Map.class))
        .endOpaque().endConfig().endDevices().endSpec().build();
  }

  @Test
  void partitionsConsumeFromTheirGpusCounterSetInItsOwnSlice() throws Exception {
    start(2, new DeviceLayout(4, false));
    node.awaitDevices(DRIVER, 10);
    List<ResourceSlice> all = await().atMost(Duration.ofSeconds(30)).until(() -> node.client()
        .dynamicResourceAllocation().v1().resourcesSlices().list().getItems(),
        slices -> slices.size() == 2);
    assertThat(all).filteredOn(slice -> !slice.getSpec().getSharedCounters().isEmpty())
        .singleElement().satisfies(slice -> {
          assertThat(slice.getSpec().getDevices()).isEmpty();
          assertThat(slice.getSpec().getSharedCounters()).extracting(set -> set.getName())
              .containsExactly("gpu-0-counters", "gpu-1-counters");
        });
    ResourceClaim whole = node.allocate(node.createClaim("default", "whole", "gpu",
        "gpu.example.com", 1));
    String taken = whole.getStatus().getAllocation().getDevices().getResults().get(0).getDevice();
    assertThat(taken).matches("gpu-[01]");

    ResourceClaim parts = node.allocate(node.createClaim("default", "parts", "p",
        "partition.gpu.example.com", 4));
    assertThat(parts.getStatus().getAllocation().getDevices().getResults())
        .extracting(r -> r.getDevice()).allMatch(d -> d.startsWith("gpu-") && d.contains(
            "-partition-"))
        .noneMatch(d -> whole.getStatus().getAllocation().getDevices()
            .getResults().stream().anyMatch(w -> d.startsWith(w.getDevice() + "-")));
  }

  @Test
  void anUnhealthyGpuIsTaintedAndReportedThenRecoversWithoutARestart() throws Exception {
    start(2, DeviceLayout.WHOLE_GPUS);
    node.awaitDevices(DRIVER, 2);
    Files.writeString(healthFile,
        "{\"gpu-1\": {\"key\": \"xid\", \"value\": \"79\", \"message\": \"fell off the bus\"}}");

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      Device gpu1 = device("gpu-1");
      assertThat(gpu1.getTaints()).singleElement().satisfies(taint -> {
        assertThat(taint.getKey()).isEqualTo(DRIVER + "/xid");
        assertThat(taint.getValue()).isEqualTo("79");
        assertThat(taint.getEffect()).isEqualTo("NoSchedule");
      });
      assertThat(device("gpu-0").getTaints()).isNullOrEmpty();
    });
    assertThat(plugin.deviceHealth().snapshot()).anySatisfy(h -> {
      assertThat(h.deviceName()).isEqualTo("gpu-1");
      assertThat(h.state()).isEqualTo(HealthState.UNHEALTHY);
      assertThat(h.message()).contains("xid=79", "fell off the bus");
    });

    Files.delete(healthFile);
    await().atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(device("gpu-1").getTaints()).isNullOrEmpty());
    assertThat(plugin.deviceHealth().snapshot())
        .allSatisfy(h -> assertThat(h.state()).isEqualTo(HealthState.HEALTHY));
  }

  @Test
  void anInformationalConditionIsATaintWithoutEffectAndTheHealthGaugeFollows() throws Exception {
    start(2, DeviceLayout.WHOLE_GPUS);
    node.awaitDevices(DRIVER, 2);
    Files.writeString(healthFile, "{\"gpu-0\": {\"key\": \"ecc\", \"value\": \"corrected\","
        + " \"blocking\": false}, \"gpu-1\": \"unhealthy\"}");

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      assertThat(device("gpu-0").getTaints()).singleElement().satisfies(taint -> {
        assertThat(taint.getKey()).isEqualTo(DRIVER + "/ecc");
        assertThat(taint.getValue()).isEqualTo("corrected");
        assertThat(taint.getEffect()).isEqualTo("None");
      });
      assertThat(device("gpu-1").getTaints()).singleElement().satisfies(taint -> {
        assertThat(taint.getKey()).isEqualTo(DRIVER + "/unhealthy");
        assertThat(taint.getEffect()).isEqualTo("NoSchedule");
      });
    });
    assertThat(healthGauge("gpu-0", "healthy")).as("an informational condition").isEqualTo(1);
    assertThat(healthGauge("gpu-1", "unhealthy")).isEqualTo(1);

    Files.delete(healthFile);
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      assertThat(device("gpu-0").getTaints()).isNullOrEmpty();
      assertThat(device("gpu-1").getTaints()).isNullOrEmpty();
    });
    assertThat(healthGauge("gpu-1", "healthy")).isEqualTo(1);
  }

  private double healthGauge(String device, String state) {
    return plugin.meterRegistry().get("dra4j.plugin.device.health").tag("device", device)
        .tag("state", state).gauge().value();
  }

  private Device device(String name) {
    return node.slices().stream().flatMap(s -> s.getSpec().getDevices().stream())
        .filter(d -> d.getName().equals(name)).findFirst().orElseThrow();
  }
}
