package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.container.CudaProbeBuild;
import io.github.dra4j.examples.gpu.container.StubDriverRoot;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.examples.gpu.mps.MpsStubs;
import io.github.dra4j.examples.gpu.nvml.driverfiles.FakeDriverRoot;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A simulated GPU node whose driver root is real enough for containers, for {@link
 * DriverSpecsContainerTest}: the NVML stub's eight GPUs; a {@link FakeDriverRoot} of the stub's
 * driver version whose {@code libcuda.so} is the container tests' stub CUDA library, in {@code
 * /usr/lib/<triplet>/nvidia/current} (a folder the dynamic linker searches only through the
 * linker cache); the working stub {@code nvidia-cdi-hook} of {@link StubDriverRoot}; the stub MPS
 * control daemon and {@code nvidia-smi} of {@link MpsStubs};
 * and real character device nodes in {@code dev} ({@code nvidia0..7} 195:N, {@code nvidiactl}
 * 195:255, {@code nvidia-modeset} 195:254, {@code nvidia-uvm} 511:0, {@code nvidia-uvm-tools}
 * 511:1; never opened). The GPU driver runs on it with host driver root = container driver root
 * = the fake root's real path, since the test is the host. Owned by one test class; not
 * thread-safe.
 */
final class ContainerGpuNode implements AutoCloseable {

  /** The driver's name. */
  static final String DRIVER = GpuDriver.DEFAULT_NAME;

  private static final String CLASS = "gpu.gpu.example.com";

  private final Path root;
  private final FakeDriverRoot files;
  private final MpsStubs mps;
  private final SimulatedNode node;
  private final GpuDriver driver;

  private ContainerGpuNode(Path root, FakeDriverRoot files,
      MpsStubs mps, SimulatedNode node, GpuDriver driver) {
    this.root = root;
    this.files = files;
    this.mps = mps;
    this.node = node;
    this.driver = driver;
  }

  /**
   * Builds the driver root under {@code dir} and starts the node and the driver; returns once the
   * driver published its devices.
   *
   * @param dir scratch space (the driver root, the node's directories)
   * @param compiledNvml the NVML stub from {@link NvmlStub#compile}
   * @param build the stub CUDA library's build, for its target triplet
   * @return the running node
   */
  static ContainerGpuNode start(Path dir, Path compiledNvml, CudaProbeBuild build)
      throws Exception {
    Path root = Files.createDirectories(dir.resolve("driver-root")).toRealPath();
    NvmlStub stub = NvmlStub.install(compiledNvml, root);
    FakeDriverRoot files = FakeDriverRoot.builder(root, NvmlStub.DRIVER_VERSION)
        .libraryDir("/usr/lib/" + build.triplet() + "/nvidia/current")
        .librarySource("libcuda.so", CudaProbeBuild.stubLibrarySource())
        .withoutHook()
        .build();
    StubDriverRoot.installCdiHook(root.resolve("usr/bin/nvidia-cdi-hook"));
    var mps = MpsStubs.create(root);
    Path dev = root.resolve("dev");
    Map<String, int[]> nodes = new LinkedHashMap<>();
    for (int minor = 0; minor < NvmlStub.GPUS.size(); minor++) {
      nodes.put("nvidia" + minor, new int[] {195, minor});
    }
    nodes.put("nvidiactl", new int[] {195, 255});
    nodes.put("nvidia-modeset", new int[] {195, 254});
    nodes.put("nvidia-uvm", new int[] {511, 0});
    nodes.put("nvidia-uvm-tools", new int[] {511, 1});
    for (Map.Entry<String, int[]> entry : nodes.entrySet()) {
      Files.deleteIfExists(dev.resolve(entry.getKey())); // the fake root's regular files
      StubDriverRoot.mknod(dev.resolve(entry.getKey()), entry.getValue()[0],
          entry.getValue()[1]);
    }
    SimulatedNode node = SimulatedNode.start("node-1", dir.resolve("node"));
    GpuDriver driver = null;
    try {
      driver = GpuDriver.create(DRIVER, node.nodeName(), NvmlBackend.open(
          stub.options().hostDriverRoot(root).build()), DeviceLayout.WHOLE_GPUS, false);
      driver.attach(node.startDriver(DRIVER, driver.lifecycle(), null));
      node.awaitDevices(DRIVER, 15);
      node.createDeviceClass(CLASS, "device.driver == '" + DRIVER + "'",
          "device.attributes['" + DRIVER + "'].type == 'gpu'");
      return new ContainerGpuNode(root, files, mps, node, driver);
    } catch (Exception | Error e) {
      if (driver != null) {
        driver.close();
      }
      node.close();
      throw e;
    }
  }

  /** The driver root (a real path: the host's and the plugin's). */
  Path root() {
    return root;
  }

  /** The driver's files under the root. */
  FakeDriverRoot files() {
    return files;
  }

  /** The MPS and nvidia-smi stubs and what they recorded. */
  MpsStubs mps() {
    return mps;
  }

  /** The simulated node. */
  SimulatedNode node() {
    return node;
  }

  /** The directory the plugin writes its CDI specs to. */
  Path cdiDirectory() {
    return node.cdiDirectory();
  }

  /**
   * Creates and allocates a claim of exactly the named GPUs, chosen by their UUIDs in CEL.
   *
   * @param name the claim's name
   * @param gpus device names, such as {@code gpu-1}
   * @return the allocated claim
   */
  ResourceClaim claimOf(String name, String... gpus) {
    String selector = Arrays.stream(gpus)
        .map(gpu -> "device.attributes['" + DRIVER + "'].uuid == '" + uuidOf(gpu) + "'")
        .collect(Collectors.joining(" || "));
    ResourceClaim claim = node.allocate(node.createClaim(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpus").withNewExactly()
        .withDeviceClassName(CLASS).withAllocationMode("ExactCount").withCount((long) gpus.length)
        .addNewSelector().withNewCel().withExpression(selector).endCel().endSelector()
        .endExactly().endRequest().endDevices().endSpec().build()));
    assertThat(claim.getStatus().getAllocation().getDevices().getResults())
        .extracting(r -> r.getDevice()).containsExactlyInAnyOrder(gpus);
    return claim;
  }

  /**
   * Creates and allocates a claim of one GPU shared through MPS.
   *
   * @param name the claim's name
   * @param gpu the device name
   * @return the allocated claim
   */
  ResourceClaim mpsClaimOf(String name, String gpu) {
    String config = "{\"apiVersion\":\"gpu.resource.dra4j.io/v1alpha1\",\"kind\":\"GpuConfig\","
        + "\"sharing\":{\"strategy\":\"MPS\",\"mpsConfig\":{\"defaultActiveThreadPercentage\":"
        + "50}}}";
    return node.allocate(node.createClaim(new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName(CLASS).addNewSelector().withNewCel().withExpression(
            "device.attributes['" + DRIVER + "'].uuid == '" + uuidOf(gpu) + "'")
        .endCel()
        .endSelector().endExactly().endRequest()
        .addNewConfig().withRequests("gpu").withNewOpaque().withDriver(DRIVER)
        .withParameters(Serialization.unmarshal(config, Map.class))
        .endOpaque().endConfig().endDevices().endSpec().build()));
  }

  /**
   * Prepares a claim through the kubelet and returns the CDI device names the prepare answered.
   *
   * @param claim an allocated claim
   * @return its qualified CDI device names, in the response's order
   */
  List<String> prepare(ResourceClaim claim) {
    PrepareOutcome outcome = node.prepare(DRIVER, claim);
    assertThat(outcome.isSuccess()).as(outcome.toString()).isTrue();
    return outcome.devices(claim.getMetadata().getUid()).stream()
        .flatMap(d -> d.cdiDeviceIds().stream()).distinct().toList();
  }

  /**
   * Unprepares a claim and deletes it, freeing its GPUs.
   *
   * @param claim a prepared claim
   */
  void release(ResourceClaim claim) {
    assertThat(node.unprepare(DRIVER, claim).isSuccess()).isTrue();
    node.client().resource(claim).delete();
  }

  /** A device's GPU UUID. */
  String uuidOf(String device) {
    return driver.catalog().device(device).orElseThrow().gpu().uuid();
  }

  @Override
  public void close() throws Exception {
    try {
      driver.close();
      node.close();
    } finally {
      mps.killAll();
    }
  }
}
