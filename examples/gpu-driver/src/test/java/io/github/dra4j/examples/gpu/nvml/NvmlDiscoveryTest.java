package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import io.github.dra4j.examples.gpu.nvml.NvmlStub.StubGpu;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Discovery through NVML, against the stub's 8-GPU H100 node. */
class NvmlDiscoveryTest {

  private static final long MIB = 1024L * 1024L;

  /** PCIe roots the fake sysfs links to; GPU 0000:c3:00.0 has no link. */
  private static final Map<String, String> PCIE_ROOTS = Map.of("0000:1b:00.0", "pci0000:16",
      "0000:43:00.0", "pci0000:40", "0000:52:00.0", "pci0000:4f", "0000:61:00.0", "pci0000:5d",
      "0000:9d:00.0", "pci0000:97", "0000:d1:00.0", "pci0000:ce", "0000:df:00.0", "pci0000:dc");

  @TempDir
  static Path buildDir;

  private static Path compiled;

  @TempDir
  Path root;

  private NvmlStub stub;

  @BeforeAll
  static void compileStub() throws Exception {
    compiled = NvmlStub.compile(buildDir);
  }

  @BeforeEach
  void installStub() throws Exception {
    stub = NvmlStub.install(compiled, root);
    Path devices = Files.createDirectories(root.resolve("sys/bus/pci/devices"));
    for (Map.Entry<String, String> e : PCIE_ROOTS.entrySet()) {
      String rootPort = e.getValue().substring(3) + ":01.0";
      Files.createSymbolicLink(devices.resolve(e.getKey()), Path.of("../../../devices",
          e.getValue(), rootPort, e.getKey()));
    }
  }

  @Test
  void findsTheEightGpusOrderedByMinorWithEveryAttributeFromNvml() throws Exception {
    try (NvmlBackend backend = NvmlBackend.open(stub.options().build())) {
      List<Gpu> gpus = backend.discovery().discover();

      assertThat(gpus).extracting(Gpu::minor).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
      for (StubGpu expected : NvmlStub.GPUS) {
        Gpu gpu = gpus.get(expected.minor());
        assertThat(gpu.uuid()).isEqualTo(expected.uuid());
        assertThat(gpu.productName()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(gpu.brand()).isEqualTo("Nvidia");
        assertThat(gpu.architecture()).isEqualTo("Hopper");
        assertThat(gpu.cudaComputeCapability()).isEqualTo("9.0.0");
        assertThat(gpu.driverVersion()).isEqualTo(NvmlStub.DRIVER_VERSION);
        assertThat(gpu.cudaDriverVersion()).isEqualTo("12.8.0");
        assertThat(gpu.pciBusId()).contains(expected.busId());
        assertThat(gpu.pcieRoot()).isEqualTo(Optional.ofNullable(PCIE_ROOTS.get(
            expected.busId())));
        assertThat(gpu.memoryBytes()).isEqualTo(81559 * MIB);
        assertThat(gpu.compute()).isEqualTo(100);
        assertThat(gpu.migEnabled()).isEqualTo(expected.index() >= 6);
      }
      assertThat(gpus.get(5).pcieRoot()).as("no sysfs link for 0000:c3:00.0").isEmpty();
      assertThat(gpus.subList(0, 6)).allSatisfy(gpu -> assertThat(gpu.migDevices()).isEmpty());
      assertThat(backend.discovery().describe())
          .isEqualTo("NVML 12.570.86.15 from " + stub.library());
    }
  }

  @Test
  void findsTheStaticMigDevicesWithTheirProfilesPlacementsAndEngines() throws Exception {
    try (NvmlBackend backend = NvmlBackend.open(stub.options().build())) {
      List<Gpu> gpus = backend.discovery().discover();

      List<MigDevice> seven = gpus.get(6).migDevices();
      assertThat(seven).hasSize(7);
      for (int i = 0; i < 7; i++) {
        assertThat(seven.get(i)).isEqualTo(new MigDevice(
            "MIG-6d0a1b2c-3d4e-5f60-8a1b-2c3d4e5f600" + (i + 1), "1g.10gb", 19, i, 1, 7 + i, 0,
            9856 * MIB, 16, 1, 1, 0, 1, 0));
      }
      assertThat(gpus.get(7).migDevices()).containsExactly(
          new MigDevice("MIG-7e1b2c3d-4e5f-6071-9b2c-3d4e5f607101", "4g.40gb", 5, 0, 4, 1, 0,
              40320 * MIB, 64, 4, 4, 0, 4, 0),
          new MigDevice("MIG-7e1b2c3d-4e5f-6071-9b2c-3d4e5f607102", "3g.40gb", 9, 4, 4, 2, 0,
              40320 * MIB, 60, 3, 3, 0, 3, 0));
    }
  }

  @Test
  void unsupportedMemoryIsZeroAndATwoPartDriverVersionGetsAPatch() throws Exception {
    stub.configure("no-memory-info 2", "driver-version 570.86");
    try (NvmlBackend backend = NvmlBackend.open(stub.options().build())) {
      List<Gpu> gpus = backend.discovery().discover();

      assertThat(gpus.get(2).memoryBytes()).isZero();
      assertThat(gpus.get(3).memoryBytes()).isEqualTo(81559 * MIB);
      assertThat(gpus).extracting(Gpu::driverVersion).containsOnly("570.86.0");
    }
  }

  @Test
  void aMissingLibraryNamesEveryPathTriedInOrder() throws Exception {
    Path empty = Files.createDirectories(root.resolve("empty"));

    assertThatThrownBy(() -> NvmlBackend.open(NvmlOptions.builder().containerDriverRoot(empty)
        .build()))
        .isInstanceOf(DiscoveryException.class)
        .hasMessageContaining("libnvidia-ml.so.1 not found under the driver root " + empty)
        .hasMessageContaining(String.join(", ",
            empty + "/usr/lib64/libnvidia-ml.so.1",
            empty + "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
            empty + "/usr/lib/aarch64-linux-gnu/libnvidia-ml.so.1",
            empty + "/lib64/libnvidia-ml.so.1",
            empty + "/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
            empty + "/lib/aarch64-linux-gnu/libnvidia-ml.so.1"));
  }

  @Test
  void anExplicitLibraryThatDoesNotLoadIsNamed() {
    Path wrong = root.resolve("nowhere/libnvidia-ml.so.1");

    assertThatThrownBy(() -> NvmlBackend.open(stub.options().libraryPath(wrong).build()))
        .isInstanceOf(DiscoveryException.class)
        .hasMessageStartingWith("cannot load NVML from " + wrong);
  }

  @Test
  void anInitFailureNamesTheCallAndNvmlsErrorString() throws Exception {
    stub.configure("init-error 9");

    assertThatThrownBy(() -> NvmlBackend.open(stub.options().build()))
        .isInstanceOf(DiscoveryException.class)
        .hasMessageContaining("nvmlInitWithFlags of " + stub.library() + " failed:"
            + " Driver Not Loaded (9)");
  }

  @Test
  void theExplicitLibraryPathWinsOverTheDriverRoot() throws Exception {
    Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));
    NvmlStub other = NvmlStub.install(compiled, elsewhere);
    NvmlOptions options = NvmlOptions.builder()
        .containerDriverRoot(Files.createDirectories(root.resolve("no-driver")))
        .libraryPath(other.library()).build();

    try (NvmlBackend backend = NvmlBackend.open(options)) {
      assertThat(backend.libraryPath()).isEqualTo(other.library());
      assertThat(backend.discovery().discover()).hasSize(8);
    }
  }

  @Test
  void discoveryAfterCloseSaysNvmlIsShutDown() throws Exception {
    NvmlBackend backend = NvmlBackend.open(stub.options().build());
    backend.close();
    backend.close();

    assertThatThrownBy(() -> backend.discovery().discover())
        .isInstanceOf(DiscoveryException.class)
        .hasMessageContaining("nvmlSystemGetDriverVersion failed: NVML is shut down");
  }
}
