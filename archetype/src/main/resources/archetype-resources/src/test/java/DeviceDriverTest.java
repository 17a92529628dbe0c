package ${package};

import static ${package}.Claims.allocatedDevices;
import static ${package}.Claims.uid;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import ${package}.config.DriverConfigs;
import ${package}.devices.SimulatedDevices;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.junit.DraTest;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.kubelet.UnprepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import io.github.dra4j.testing.webhook.AdmissionResult;
import io.github.dra4j.testing.webhook.AdmissionReviews;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The driver on a simulated node (in-memory API server, the kubelet's gRPC over real sockets,
 * the scheduler's allocator, CDI resolved as containerd does), as a pod's life goes: devices
 * published, a claim allocated by a DeviceClass selector, prepared, what its container gets,
 * unprepared; a configuration the webhook refuses; an upgrade of the driver.
 */
@DraTest(driver = DriverSetup.class)
class DeviceDriverTest {

  private static final String DRIVER = DeviceDriver.DEFAULT_NAME;
  private static final String LARGE = "large." + DRIVER;

  /** The DeviceClass the Helm chart installs: every device of the driver. */
  private static void createChartDeviceClass(SimulatedNode node) {
    node.createDeviceClass(DRIVER, "device.driver == '" + DRIVER + "'");
  }

  @Test
  void publishesTheNodesDevicesWithTheirAttributesAndCapacity(SimulatedNode node) {
    List<ResourceSlice> slices = node.awaitDevices(DRIVER, DriverSetup.DEVICES);

    assertThat(slices).singleElement().satisfies(slice -> {
      assertThat(slice.getSpec().getDriver()).isEqualTo(DRIVER);
      assertThat(slice.getSpec().getNodeName()).isEqualTo(node.nodeName());
      assertThat(slice.getSpec().getPool().getName()).isEqualTo(node.nodeName());
    });
    List<Device> devices = slices.get(0).getSpec().getDevices();
    assertThat(devices).extracting(Device::getName)
        .containsExactly("device-0", "device-1", "device-2", "device-3");
    Device large = devices.get(1);
    assertThat(large.getAttributes().get("model").getString()).isEqualTo("large");
    assertThat(large.getAttributes().get("index").getInt()).isEqualTo(1L);
    assertThat(large.getCapacity().get("memory").getValue()).isEqualTo(new Quantity("64Gi"));
    assertThat(devices.get(0).getAttributes().get("uuid").getString())
        .as("stable across restarts: derived from the node's name")
        .isEqualTo(new SimulatedDevices(node.nodeName(), 1).discover().get(0).uuid());
  }

  @Test
  void aDeviceClassSelectorPicksTheDevicesAndTheContainerGetsTheirVariables(
      SimulatedNode node) throws IOException {
    node.createDeviceClass(LARGE, "device.driver == '" + DRIVER + "'",
        "device.capacity['" + DRIVER + "'].memory.compareTo(quantity('32Gi')) >= 0");
    ResourceClaim claim = node.allocate(node.createClaim("default", "big", "dev", LARGE, 2));
    assertThat(allocatedDevices(claim)).containsExactlyInAnyOrder("device-1", "device-3");

    PrepareOutcome prepared = node.prepare(DRIVER, claim); // over the kubelet's gRPC

    assertThat(prepared.isSuccess()).as(prepared.toString()).isTrue();
    assertThat(prepared.devices(uid(claim))).allSatisfy(device ->
        assertThat(device.cdiDeviceIds()).singleElement().asString()
            .startsWith("k8s." + DRIVER + "/claim=" + uid(claim)));
    String uuid3 = new SimulatedDevices(node.nodeName(), DriverSetup.DEVICES).discover().get(3)
        .uuid();
    assertThat(node.containerEdits(prepared, claim).env()).contains("DRA_DEVICE_1=device-1",
            "DRA_DEVICE_1_MODEL=large", "DRA_DEVICE_1_PROFILE=Balanced", "DRA_DEVICE_3=device-3",
            "DRA_DEVICE_3_UUID=" + uuid3)
        .noneMatch(variable -> variable.startsWith("DRA_DEVICE_0"))
        .noneMatch(variable -> variable.contains("POWER_LIMIT"));
    assertThat(cdiSpecs(node)).singleElement().asString().contains(uid(claim));
  }

  @Test
  void unprepareResetsWhatPrepareAppliedAndRemovesTheCdiSpec(SimulatedNode node,
      DeviceClaimDriver driver) throws IOException {
    createChartDeviceClass(node);
    ResourceClaim claim = node.allocate(node.createClaim(Claims.withConfig("tuned", DRIVER,
        DRIVER, "{\"profile\": \"Performance\", \"powerLimitWatts\": 300}")));
    String device = allocatedDevices(claim).get(0);
    SimulatedDevices devices = (SimulatedDevices) driver.backend();

    PrepareOutcome prepared = node.prepare(DRIVER, claim);

    assertThat(prepared.isSuccess()).as(prepared.toString()).isTrue();
    String prefix = "DRA_DEVICE_" + device.substring("device-".length());
    assertThat(node.containerEdits(prepared, claim).env()).contains(prefix + "=" + device,
        prefix + "_PROFILE=Performance", prefix + "_POWER_LIMIT_WATTS=300");
    assertThat(devices.applied()).containsOnlyKeys(device);
    assertThat(devices.applied().get(device).powerLimitWatts()).isEqualTo(300);

    UnprepareOutcome unprepared = node.unprepare(DRIVER, claim);

    assertThat(unprepared.isSuccess()).as(unprepared.toString()).isTrue();
    assertThat(devices.applied()).isEmpty();
    assertThat(cdiSpecs(node)).isEmpty();
  }

  @Test
  void aConfigurationTheWebhookDeniesAlsoFailsOnlyItsOwnClaimsPrepare(SimulatedNode node) {
    ResourceClaim bad = Claims.withConfig("too-much-power", DRIVER, DRIVER,
        "{\"profile\": \"PowerSaving\", \"powerLimitWatts\": 300}");

    AdmissionDecision decision = AdmissionReviewHandler.of(DRIVER, DriverConfigs.SCHEME)
        .handle(AdmissionReviews.create(bad));   // the review the API server sends

    AdmissionResult answer = AdmissionResult.read(decision.response());  // what it gets back
    assertThat(answer.allowed()).isFalse();
    assertThat(answer.code()).isEqualTo(422);
    assertThat(answer.fields())
        .containsExactly("spec.devices.config[0].opaque.parameters.powerLimitWatts");
    assertThat(answer.message()).contains("spec.devices.config[0].opaque.parameters"
        + ".powerLimitWatts: must be at most 150 watts with profile PowerSaving, got 300");

    // Stored anyway (a cluster without the webhook): the plugin refuses it in the same words,
    // and the other claim of the same call is prepared.
    createChartDeviceClass(node);
    ResourceClaim stored = node.allocate(node.createClaim(bad));
    ResourceClaim plain = node.allocate(node.createClaim("default", "plain", "dev", DRIVER, 1));
    PrepareOutcome outcome = node.prepare(DRIVER, stored, plain);

    assertThat(outcome.result(uid(stored)).error()).contains("ResourceClaim spec.devices"
        + ".config[0].opaque.parameters.powerLimitWatts: must be at most 150 watts with profile"
        + " PowerSaving");
    assertThat(outcome.result(uid(plain)).isFailed()).isFalse();
  }

  @Test
  void anUpgradedDriverTakesOverTheClaimsItsPredecessorPrepared(SimulatedNode node,
      KubeletPlugin plugin) throws IOException {
    createChartDeviceClass(node);
    ResourceClaim claim = node.allocate(node.createClaim(Claims.withConfig("tuned", DRIVER,
        DRIVER, "{\"profile\": \"Performance\"}")));
    PrepareOutcome before = node.prepare(DRIVER, claim);
    assertThat(before.isSuccess()).as(before.toString()).isTrue();

    // A DaemonSet rolling update with surge: the new pod registers, then the old one stops.
    RecordingDevices nextDevices = new RecordingDevices(
        new SimulatedDevices(node.nodeName(), DriverSetup.DEVICES));
    DeviceDriver next;
    try {
      next = DeviceDriver.create(DRIVER, node.nodeName(), nextDevices);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    KubeletPlugin upgraded = node.upgradeDriver(plugin, DRIVER, next.lifecycle(), null);
    upgraded.publishResources(next.resources());
    assertThat(plugin.isServing()).as("the old instance stopped").isFalse();

    // The kubelet prepares the running pod's claim again: the answer comes from the
    // checkpoint both instances share, without touching the device again.
    PrepareOutcome again = node.prepare(DRIVER, claim);
    assertThat(again.devices(uid(claim))).isEqualTo(before.devices(uid(claim)));
    assertThat(nextDevices.calls()).isEmpty();

    // The pod ends: the new instance undoes what the old one applied.
    assertThat(node.unprepare(DRIVER, claim).isSuccess()).isTrue();
    assertThat(nextDevices.calls()).containsExactly("reset " + allocatedDevices(claim).get(0));
    assertThat(cdiSpecs(node)).isEmpty();
  }

  private static List<String> cdiSpecs(SimulatedNode node) throws IOException {
    try (Stream<Path> files = Files.list(node.cdiDirectory())) {
      return files.map(file -> file.getFileName().toString()).toList();
    }
  }
}
