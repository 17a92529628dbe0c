package io.github.dra4j.examples.gpu.nvml;

import static io.github.dra4j.examples.gpu.demo.DemoManifests.devicesOf;
import static io.github.dra4j.examples.gpu.demo.DemoManifests.prefix;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.RecordingSharingCommands;
import io.github.dra4j.examples.gpu.backend.GpuBackend;
import io.github.dra4j.examples.gpu.backend.HostDeviceNode;
import io.github.dra4j.examples.gpu.config.GpuConfigs;
import io.github.dra4j.examples.gpu.demo.DemoManifests;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.GpuDiscovery;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import io.github.dra4j.examples.gpu.health.HealthSource;
import io.github.dra4j.examples.gpu.nvml.driverfiles.FakeDriverRoot;
import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.node.RunningPod;
import io.github.dra4j.testing.node.SimulatedNode;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Manifests written for NVIDIA's DRA driver ({@code demo/nvidia/}: NVIDIA's DeviceClass names,
 * CEL selectors on NVIDIA's attribute names, opaque configurations of {@code
 * resource.nvidia.com/v1beta1}) applied unchanged to this driver named {@code gpu.nvidia.com},
 * on the NVML stub's 8-GPU H100 node (MIG on two GPUs), with the DeviceClasses NVIDIA's chart
 * creates: every pod gets its devices, the sharing settings reach the containers' environment and
 * the GPUs' sharing commands, and the webhook's scheme accepts and refuses what the plugin does.
 */
class NvidiaManifestsTest {

  private static final String DRIVER = "gpu.nvidia.com";
  private static final DemoManifests DEMO = new DemoManifests(Path.of("demo/nvidia"));
  private static Path compiled;

  @TempDir
  Path root;
  private SimulatedNode node;
  private GpuDriver driver;
  private final RecordingSharingCommands sharing = new RecordingSharingCommands();

  @BeforeAll
  static void compile(@TempDir Path dir) throws Exception {
    compiled = NvmlStub.compile(dir);
  }

  @BeforeEach
  void start() throws Exception {
    NvmlStub stub = NvmlStub.install(compiled, root.resolve("driver-root"));
    FakeDriverRoot.create(stub.root(), NvmlStub.DRIVER_VERSION);
    Path dev = Files.createDirectories(stub.root().resolve("dev"));
    for (String name : List.of("nvidiactl", "nvidia-uvm", "nvidia0", "nvidia1", "nvidia2",
        "nvidia3", "nvidia4", "nvidia5", "nvidia6", "nvidia7")) {
      Files.writeString(dev.resolve(name), "");
    }
    node = SimulatedNode.start("node-1", root.resolve("node"));
    // The classes of NVIDIA's chart.
    for (String type : List.of("gpu", "mig")) {
      node.createDeviceClass(type + ".nvidia.com", "device.driver == '" + DRIVER + "' && "
          + "device.attributes['" + DRIVER + "'].type == '" + type + "'");
    }
    NvmlBackend nvml = NvmlBackend.open(stub.options()
        .hostDriverRoot(Path.of("/run/nvidia/driver")).build());
    driver = GpuDriver.create(DRIVER, node.nodeName(), recording(nvml), DeviceLayout.WHOLE_GPUS,
        false);
    writeMigCapabilities(stub.root().resolve("proc/driver/nvidia/capabilities"));
    KubeletPlugin plugin = node.startDriver(DRIVER, driver.lifecycle(), null);
    driver.attach(plugin);
    node.awaitDevices(DRIVER, 15);
  }

  @AfterEach
  void stop() {
    if (driver != null) {
      driver.close();
    }
    if (node != null) {
      node.close();
    }
  }

  @AfterAll
  static void everyNvidiaManifestIsTested() throws IOException {
    DEMO.assertEveryFileApplied("NVIDIA manifests");
  }

  /** The NVML backend with its sharing commands recorded instead of run. */
  private GpuBackend recording(NvmlBackend nvml) {
    SharingCommands commands = sharing;
    return new GpuBackend() {
      @Override
      public GpuDiscovery discovery() {
        return nvml.discovery();
      }

      @Override
      public HealthSource health() {
        return nvml.health();
      }

      @Override
      public SharingCommands sharing() {
        return commands;
      }

      @Override
      public List<HostDeviceNode> deviceNodes(Gpu gpu, Optional<MigDevice> mig) {
        return nvml.deviceNodes(gpu, mig);
      }

      @Override
      public ContainerEdits commonEdits() throws DiscoveryException {
        return nvml.commonEdits();
      }

      @Override
      public void close() {
        nvml.close();
      }
    };
  }

  /** The capability files of every MIG device's GPU and compute instance. */
  private void writeMigCapabilities(Path caps) throws IOException {
    for (var device : driver.catalog().devices().values()) {
      if (device.mig().isPresent()) {
        MigDevice mig = device.mig().get();
        Path gi = Files.createDirectories(caps.resolve("gpu" + device.gpu().minor() + "/mig/gi"
            + mig.giId()));
        Files.writeString(gi.resolve("access"), "DeviceFileMinor: " + (100 + mig.giId()) + "\n");
        Path ci = Files.createDirectories(gi.resolve("ci" + mig.ciId()));
        Files.writeString(ci.resolve("access"), "DeviceFileMinor: " + (200 + mig.ciId()) + "\n");
      }
    }
  }

  private String uuidOf(String device) {
    return driver.catalog().device(device).orElseThrow().uuid();
  }

  /**
   * The attributes and capacities manifests written for NVIDIA's driver select on, with
   * NVIDIA's names and types: string, version (semantic) or int.
   */
  @Test
  void theDevicesCarryTheAttributesNvidiasManifestsSelectOnWithNvidiasTypes() {
    List<Device> devices = node.slices().stream()
        .flatMap(s -> s.getSpec().getDevices().stream()).toList();
    Device gpu = devices.stream().filter(d -> d.getName().equals("gpu-0")).findFirst()
        .orElseThrow();
    Device mig = devices.stream().filter(d -> d.getName().startsWith("gpu-6-mig-1g10gb-"))
        .findFirst().orElseThrow();
    for (Device device : List.of(gpu, mig)) {
      Map<String, DeviceAttribute> attributes = device.getAttributes();
      for (String text : List.of("type", "uuid", "productName", "brand", "architecture",
          "resource.kubernetes.io/pciBusID")) {
        assertThat(attributes.get(text).getString()).as(device.getName() + " " + text)
            .isNotBlank();
      }
      for (String version : List.of("cudaComputeCapability", "driverVersion",
          "cudaDriverVersion")) {
        assertThat(attributes.get(version).getVersion()).as(device.getName() + " " + version)
            .matches("\\d+\\.\\d+\\.\\d+");
      }
      assertThat(device.getCapacity()).containsKey("memory");
    }
    assertThat(gpu.getAttributes().get("type").getString()).isEqualTo("gpu");
    assertThat(gpu.getAttributes().get("uuid").getString()).startsWith("GPU-");
    assertThat(gpu.getAttributes().get("cudaComputeCapability").getVersion()).isEqualTo("9.0.0");
    assertThat(gpu.getAttributes().get("driverVersion").getVersion())
        .isEqualTo(NvmlStub.DRIVER_VERSION);
    assertThat(mig.getAttributes().get("type").getString()).isEqualTo("mig");
    assertThat(mig.getAttributes().get("uuid").getString()).startsWith("MIG-");
    assertThat(mig.getAttributes().get("profile").getString()).isEqualTo("1g.10gb");
    assertThat(mig.getAttributes().get("parentUUID").getString())
        .isEqualTo(NvmlStub.GPUS.get(6).uuid());
    assertThat(mig.getCapacity()).containsKeys("multiprocessors", "copyEngines", "decoders",
        "encoders", "jpegEngines", "ofaEngines");
  }

  @Test
  void timeSlicingFromNvidiasGpuConfigReachesBothPodsAndTheGpu() throws Exception {
    List<RunningPod> pods = DEMO.apply(node, "gpu-timeslicing.yaml");

    Map<String, String> first = pods.get(0).environment("ctr0");
    String gpu = devicesOf(first).get(0);
    assertThat(devicesOf(pods.get(1).environment("ctr0"))).containsExactly(gpu);
    assertThat(first).containsEntry(prefix(gpu) + "_TYPE", "gpu")
        .containsEntry(prefix(gpu) + "_SHARING_STRATEGY", "TimeSlicing")
        .containsEntry(prefix(gpu) + "_TIMESLICE_INTERVAL", "Long")
        .containsEntry("DRA_RESOURCE_DRIVER_NAME", DRIVER);
    assertThat(sharing.calls()).containsExactly("apply " + new SharingSetting.TimeSlicing(
        SharingSetting.TimeSliceInterval.Long) + " [" + uuidOf(gpu) + "]");
  }

  @Test
  void mpsFromNvidiasGpuConfigReachesTheContainersAndTheGpu() throws Exception {
    RunningPod pod = DEMO.apply(node, "gpu-mps.yaml").get(0);

    Map<String, String> env = pod.environment("mps-ctr0");
    String gpu = devicesOf(env).get(0);
    assertThat(devicesOf(pod.environment("mps-ctr1"))).containsExactly(gpu);
    assertThat(env).containsEntry(prefix(gpu) + "_SHARING_STRATEGY", "MPS")
        .containsEntry(prefix(gpu) + "_MPS_ACTIVE_THREAD_PERCENTAGE", "50")
        .containsEntry(prefix(gpu) + "_MPS_PINNED_MEMORY_LIMIT", Long.toString(10L << 30));
    SharingSetting mps = new SharingSetting.Mps(OptionalInt.of(50), OptionalLong.of(10L << 30),
        Map.of("0", 8L << 30), true);
    assertThat(sharing.calls()).containsExactly("apply " + mps + " [" + uuidOf(gpu) + "]");
  }

  @Test
  void mpsFromNvidiasMigDeviceConfigReachesTheContainerOfTwoMigDevicesOfOneGpu()
      throws Exception {
    RunningPod pod = DEMO.apply(node, "mig-mps.yaml").get(0);

    Map<String, String> env = pod.environment("ctr0");
    List<String> migs = devicesOf(env);
    assertThat(migs).hasSize(2).allMatch(d -> d.startsWith("gpu-6-mig-1g10gb-"));
    for (String mig : migs) {
      assertThat(env).containsEntry(prefix(mig) + "_TYPE", "mig")
          .containsEntry(prefix(mig) + "_UUID", uuidOf(mig))
          .containsEntry(prefix(mig) + "_SHARING_STRATEGY", "MPS")
          .containsEntry(prefix(mig) + "_MPS_ACTIVE_THREAD_PERCENTAGE", "25");
    }
    assertThat(sharing.calls()).as("a MIG device's GPU is not reconfigured").isEmpty();
  }

  @Test
  void nvidiasGpuConfigWithoutSharingLeavesTheGpuAsItIs() throws Exception {
    ResourceClaim claim = node.allocate(node.createClaim(claimWith("exclusive",
        Map.of("apiVersion", "resource.nvidia.com/v1beta1", "kind", "GpuConfig"))));

    var outcome = node.prepare(DRIVER, claim);
    assertThat(outcome.isSuccess()).as(outcome.toString()).isTrue();
    String gpu = claim.getStatus().getAllocation().getDevices().getResults().get(0).getDevice();
    assertThat(node.containerEdits(outcome, claim).env())
        .contains(prefix(gpu) + "=" + gpu)
        .noneMatch(e -> e.startsWith(prefix(gpu) + "_SHARING_STRATEGY="));
    assertThat(sharing.calls()).isEmpty();
  }

  @Test
  void theWebhookAcceptsTheManifestsAndRefusesWhatThePluginRefusesInTheSameWords()
      throws Exception {
    AdmissionReviewHandler webhook = AdmissionReviewHandler.of(DRIVER, GpuConfigs.SCHEME);
    for (String file : List.of("gpu-timeslicing.yaml", "gpu-mps.yaml", "mig-mps.yaml")) {
      for (HasMetadata object : DEMO.load(node, file)) {
        if (object instanceof ResourceClaim claim) {
          assertThat(webhook.handle(review("ResourceClaim", "resourceclaims", claim)).allowed())
              .as(file).isTrue();
        } else if (object instanceof ResourceClaimTemplate template) {
          assertThat(webhook.handle(review("ResourceClaimTemplate", "resourceclaimtemplates",
              template)).allowed()).as(file).isTrue();
        }
      }
    }

    Map<String, Map<String, Object>> refused = Map.of(
        "sharing.mpsConfig.defaultActiveThreadPercentage: must be from 0 to 100, got 101",
        Map.of("apiVersion", "resource.nvidia.com/v1beta1", "kind", "GpuConfig", "sharing",
            Map.of("strategy", "MPS", "mpsConfig", Map.of("defaultActiveThreadPercentage", 101))),
        "kind: \"VfioDeviceConfig\" of resource.nvidia.com/v1beta1 is not supported by this"
            + " driver",
        Map.of("apiVersion", "resource.nvidia.com/v1beta1", "kind", "VfioDeviceConfig",
            "iommu", Map.of("backendPolicy", "LegacyOnly")),
        "sharing.strategy: \"Fabric\" is not supported by this driver",
        Map.of("apiVersion", "resource.nvidia.com/v1beta1", "kind", "GpuConfig", "sharing",
            Map.of("strategy", "Fabric")));
    int i = 0;
    for (Map.Entry<String, Map<String, Object>> entry : refused.entrySet()) {
      ResourceClaim claim = node.createClaim(claimWith("refused-" + i++, entry.getValue()));
      AdmissionDecision decision = webhook.handle(review("ResourceClaim", "resourceclaims",
          claim));
      assertThat(decision.allowed()).isFalse();
      String[] expected = entry.getKey().split(": ", 2);
      assertThat(decision.problems()).singleElement().satisfies(p -> {
        assertThat(p.path()).isEqualTo("spec.devices.config[0].opaque.parameters."
            + expected[0]);
        assertThat(p.message()).startsWith(expected[1]);
      });

      ResourceClaim allocated = node.allocate(claim);
      assertThat(node.prepare(DRIVER, allocated).result(allocated.getMetadata().getUid())
          .error()).contains(entry.getKey());
    }
  }

  @Test
  void aPerDeviceLimitForADeviceOutsideTheClaimFailsThePrepareNamingTheKey() throws Exception {
    String stranger = NvmlStub.GPUS.get(6).uuid(); // a GPU of the node, in MIG mode
    ResourceClaim claim = node.allocate(node.createClaim(claimWith("stranger", Map.of(
        "apiVersion", "resource.nvidia.com/v1beta1", "kind", "GpuConfig", "sharing", Map.of(
            "strategy", "MPS", "mpsConfig", Map.of("defaultPerDevicePinnedMemoryLimit",
                Map.of(stranger, "1Gi")))))));
    String gpu = claim.getStatus().getAllocation().getDevices().getResults().get(0).getDevice();

    assertThat(node.prepare(DRIVER, claim).result(claim.getMetadata().getUid()).error())
        .contains("mpsConfig.defaultPerDevicePinnedMemoryLimit: key \"" + stranger + "\" names"
            + " no device of this configuration's group [" + uuidOf(gpu) + "]");
    assertThat(sharing.calls()).as("no setting applied to the GPU")
        .noneMatch(call -> call.startsWith("apply "));
  }

  private static ResourceClaim claimWith(String name, Map<String, Object> parameters) {
    return new ResourceClaimBuilder().withNewMetadata().withNamespace("default").withName(name)
        .endMetadata().withNewSpec().withNewDevices()
        .addNewRequest().withName("gpu").withNewExactly().withDeviceClassName("gpu.nvidia.com")
        .endExactly().endRequest()
        .addNewConfig().withRequests("gpu").withNewOpaque().withDriver(DRIVER)
        .withParameters(parameters).endOpaque().endConfig()
        .endDevices().endSpec().build();
  }

  private static byte[] review(String kind, String resource, HasMetadata object) {
    return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":"
        + "{\"uid\":\"nvidia\",\"kind\":{\"group\":\"resource.k8s.io\",\"version\":\"v1\","
        + "\"kind\":\"" + kind + "\"},\"resource\":{\"group\":\"resource.k8s.io\",\"version\":"
        + "\"v1\",\"resource\":\"" + resource + "\"},\"operation\":\"CREATE\",\"namespace\":\""
        + object.getMetadata().getNamespace() + "\",\"object\":" + Serialization.asJson(object)
        + "}}").getBytes(StandardCharsets.UTF_8);
  }
}
