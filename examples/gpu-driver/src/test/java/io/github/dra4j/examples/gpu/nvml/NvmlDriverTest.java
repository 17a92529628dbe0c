package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.examples.gpu.nvml.driverfiles.FakeDriverRoot;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.cdi.injection.OciContainer;
import io.github.dra4j.testing.cdi.injection.OciDevice;
import io.github.dra4j.testing.cdi.injection.OciDeviceRule;
import io.github.dra4j.testing.cdi.injection.OciHook;
import io.github.dra4j.testing.cdi.injection.OciMount;
import io.github.dra4j.testing.cdi.registry.CdiRegistry;
import io.github.dra4j.testing.cdi.registry.SpecFile;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole driver on the NVML backend, against the stub's 8-GPU H100 node with MIG on two GPUs,
 * on a simulated node: what it publishes, and what a container of a MIG claim gets.
 */
class NvmlDriverTest {

  private static final String DRIVER = GpuDriver.DEFAULT_NAME;
  /** The driver version the NVML stub reports. */
  private static final String HOST_ROOT = "/run/nvidia/driver";
  private static Path compiled;

  @TempDir
  Path root;

  @BeforeAll
  static void compile(@TempDir Path dir) throws Exception {
    compiled = NvmlStub.compile(dir);
  }

  @Test
  void publishesTheNodesGpusAndMigDevicesAndPreparesAMigDeviceWithItsDeviceNodes()
      throws Exception {
    NvmlStub stub = NvmlStub.install(compiled, root.resolve("driver-root"));
    FakeDriverRoot.create(stub.root(), NvmlStub.DRIVER_VERSION);
    Path caps = Files.createDirectories(stub.root().resolve(
        "proc/driver/nvidia/capabilities/gpu6/mig"));
    try (SimulatedNode node = SimulatedNode.start("node-1", root.resolve("node"));
        GpuDriver driver = GpuDriver.create(DRIVER, node.nodeName(), NvmlBackend.open(
            stub.options().hostDriverRoot(Path.of("/run/nvidia/driver")).build()),
            DeviceLayout.WHOLE_GPUS, false)) {
      KubeletPlugin plugin = node.startDriver(DRIVER, driver.lifecycle(), null);
      driver.attach(plugin);
      List<Device> devices = node.awaitDevices(DRIVER, 15).stream()
          .flatMap(s -> s.getSpec().getDevices().stream()).toList();

      assertThat(devices).extracting(Device::getName).contains("gpu-0", "gpu-5")
          .doesNotContain("gpu-6", "gpu-7")
          .filteredOn(name -> name.startsWith("gpu-6-mig-")).hasSize(7);
      Device gpu0 = devices.stream().filter(d -> d.getName().equals("gpu-0")).findFirst()
          .orElseThrow();
      assertThat(gpu0.getAttributes().get("productName").getString())
          .isEqualTo("NVIDIA H100 80GB HBM3");
      assertThat(gpu0.getAttributes().get("architecture").getString()).isEqualTo("Hopper");
      assertThat(gpu0.getAttributes().get("cudaComputeCapability").getVersion())
          .isEqualTo("9.0.0");
      assertThat(gpu0.getAttributes().get("uuid").getString())
          .isEqualTo(NvmlStub.GPUS.get(1).uuid()); // minor 0 is NVML index 1
      assertThat(gpu0.getAttributes().get("resource.kubernetes.io/pciBusID").getString())
          .isEqualTo("0000:43:00.0");
      Device mig = devices.stream().filter(d -> d.getName().startsWith("gpu-6-mig-1g10gb-"))
          .findFirst().orElseThrow();
      assertThat(mig.getAttributes().get("type").getString()).isEqualTo("mig");
      assertThat(mig.getAttributes().get("profile").getString()).isEqualTo("1g.10gb");
      assertThat(mig.getAttributes().get("parentUUID").getString())
          .isEqualTo(NvmlStub.GPUS.get(6).uuid());
      assertThat(mig.getCapacity()).containsKeys("memory", "multiprocessors", "copyEngines");

      node.createDeviceClass("mig.gpu.example.com", "device.driver == '" + DRIVER + "'",
          "device.attributes['" + DRIVER + "'].type == 'mig'",
          "device.attributes['" + DRIVER + "'].profile == '1g.10gb'");
      ResourceClaim claim = node.allocate(node.createClaim("default", "mig", "mig",
          "mig.gpu.example.com", 1));
      String device = claim.getStatus().getAllocation().getDevices().getResults().get(0)
          .getDevice();
      String gi = device.substring(device.lastIndexOf('-') + 1);
      writeCaps(caps, driver, device);

      PrepareOutcome outcome = node.prepare(DRIVER, claim);
      assertThat(outcome.isSuccess()).as(outcome.toString()).isTrue();
      ContainerEdits edits = node.containerEdits(outcome, claim);
      Map<String, String> nodes = edits.deviceNodes().stream().collect(Collectors.toMap(
          n -> n.path(), n -> n.hostPath() == null ? n.path() : n.hostPath()));
      assertThat(nodes).containsEntry("/dev/nvidia6", "/run/nvidia/driver/dev/nvidia6")
          .containsEntry("/dev/nvidiactl", "/run/nvidia/driver/dev/nvidiactl")
          .containsKeys("/dev/nvidia-caps/nvidia-cap" + (100 + Integer.parseInt(gi)));
      assertThat(edits.env()).contains("GPU_DEVICE_" + device.substring(4).toUpperCase(Locale.ROOT)
          .replace('-', '_') + "_TYPE=mig");
    }
  }

  @Test
  void theWrittenSpecsLoadAndGiveAContainerTheDriversFilesHooksAndDeviceNodes() throws Exception {
    NvmlStub stub = NvmlStub.install(compiled, root.resolve("driver-root"));
    FakeDriverRoot fake = FakeDriverRoot.create(stub.root(), NvmlStub.DRIVER_VERSION);
    try (SimulatedNode node = SimulatedNode.start("node-1", root.resolve("node"));
        GpuDriver driver = GpuDriver.create(DRIVER, node.nodeName(), NvmlBackend.open(
            stub.options().hostDriverRoot(Path.of(HOST_ROOT)).build()),
            DeviceLayout.WHOLE_GPUS, false)) {
      driver.attach(node.startDriver(DRIVER, driver.lifecycle(), null));
      node.awaitDevices(DRIVER, 15);
      node.createDeviceClass("gpu.gpu.example.com", "device.driver == '" + DRIVER + "'",
          "device.attributes['" + DRIVER + "'].type == 'gpu'");
      ResourceClaim claim = node.allocate(node.createClaim("default", "gpu", "gpu",
          "gpu.gpu.example.com", 1));
      String device = claim.getStatus().getAllocation().getDevices().getResults().get(0)
          .getDevice();
      int minor = driver.catalog().device(device).orElseThrow().gpu().minor();
      PrepareOutcome outcome = node.prepare(DRIVER, claim);
      assertThat(outcome.isSuccess()).as(outcome.toString()).isTrue();
      List<String> ids = outcome.devices(claim.getMetadata().getUid()).stream()
          .flatMap(d -> d.cdiDeviceIds().stream()).toList();

      CdiRegistry registry = CdiRegistry.load(List.of(node.cdiDirectory()));
      assertThat(registry.errors()).isEmpty();
      for (SpecFile file : registry.specFiles()) {
        boolean common = file.spec().devices().stream().anyMatch(d -> d.name().equals("common"));
        assertThat(file.spec().devices()).as(file.path() + ": only the common device has mounts"
            + " and hooks").allSatisfy(
                d -> assertThat(d.containerEdits().mounts().isEmpty()
                    && d.containerEdits().hooks().isEmpty()).isEqualTo(!common));
      }
      OciContainer container = registry.inject(ids, OciContainer.empty(), DriverSpecs::node);

      String lib = fake.libraryDir();
      List<String> libraries = List.of("libcuda.so", "libcudadebugger.so",
          "libnvidia-opencl.so", "libnvidia-gpucomp.so", "libnvidia-ptxjitcompiler.so",
          "libnvidia-allocator.so", "libnvidia-pkcs11-openssl3.so", "libnvidia-nvvm.so",
          "libnvidia-ml.so", "libnvidia-cfg.so");
      List<OciMount> expected = new ArrayList<>();
      libraries.forEach(l -> expected.add(DriverSpecs.readOnly(fake.library(l))));
      for (String binary : List.of("nvidia-cuda-mps-control", "nvidia-cuda-mps-server",
          "nvidia-smi", "nvidia-debugdump", "nvidia-persistenced")) {
        expected.add(DriverSpecs.readOnly("/usr/bin/" + binary));
      }
      expected.add(DriverSpecs.readOnly("/lib/firmware/nvidia/" + NvmlStub.DRIVER_VERSION
          + "/gsp_ga10x.bin"));
      expected.add(DriverSpecs.readOnly("/lib/firmware/nvidia/" + NvmlStub.DRIVER_VERSION
          + "/gsp_tu10x.bin"));
      expected.add(DriverSpecs.ipc("/run/nvidia-persistenced/socket"));
      assertThat(container.mounts()).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(container.devices()).extracting(OciDevice::path).containsExactlyInAnyOrder(
          "/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset",
          "/dev/nvidia" + minor);
      assertThat(container.deviceRules()).hasSize(5).allMatch(OciDeviceRule::allow);
      assertThat(container.hooks(HookName.CREATE_CONTAINER)).extracting(OciHook::path)
          .containsOnly(HOST_ROOT + "/usr/bin/nvidia-cdi-hook");
      assertThat(container.hooks(HookName.CREATE_CONTAINER)).extracting(h -> h.args().get(1))
          .containsExactly("create-symlinks", "enable-cuda-compat", "update-ldcache");
      assertThat(container.hooks(HookName.CREATE_CONTAINER).get(0).args())
          .contains(fake.library("libcuda.so").substring(lib.length() + 1) + "::" + lib
              + "/libcuda.so.1", "libcuda.so.1::" + lib + "/libcuda.so");
      assertThat(container.hooks(HookName.CREATE_CONTAINER).get(2).args())
          .endsWith("--folder", lib);
    }
  }

  /** The capability files of the MIG device's GPU and compute instance (minors 100+, 200+). */
  private static void writeCaps(Path caps, GpuDriver driver, String device) throws Exception {
    var mig = driver.catalog().device(device).orElseThrow().mig().orElseThrow();
    Path gi = Files.createDirectories(caps.resolve("gi" + mig.giId()));
    Files.writeString(gi.resolve("access"), "DeviceFileMinor: " + (100 + mig.placementStart())
        + "\nDeviceFileMode: 292\n");
    Path ci = Files.createDirectories(gi.resolve("ci" + mig.ciId()));
    Files.writeString(ci.resolve("access"), "DeviceFileMinor: " + (200 + mig.ciId())
        + "\nDeviceFileMode: 292\n");
  }
}
