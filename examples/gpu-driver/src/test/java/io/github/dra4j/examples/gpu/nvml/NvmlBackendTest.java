package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.Mount;
import io.github.dra4j.examples.gpu.backend.HostDeviceNode;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import io.github.dra4j.examples.gpu.nvml.driverfiles.FakeDriverRoot;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The backend's device nodes and nvidia-smi wiring, on the stub's driver root. */
class NvmlBackendTest {

  private static final Path HOST_ROOT = Path.of("/run/nvidia/driver");

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
  }

  @Test
  void deviceNodesUnderTheDriverRootGetHostPathsUnderTheHostDriverRoot() throws Exception {
    FakeDriverRoot driver = FakeDriverRoot.create(root, NvmlStub.DRIVER_VERSION);
    Files.delete(root.resolve("dev/nvidia-uvm-tools"));
    try (NvmlBackend backend = open()) {
      Gpu gpu3 = backend.discovery().discover().get(3);

      assertThat(backend.deviceNodes(gpu3, Optional.empty())).containsExactly(
          new HostDeviceNode("/dev/nvidia3", "/run/nvidia/driver/dev/nvidia3"));
      ContainerEdits common = backend.commonEdits();
      assertThat(common.deviceNodes()).as("nvidia-uvm-tools does not exist").containsExactly(
          new HostDeviceNode("/dev/nvidiactl", "/run/nvidia/driver/dev/nvidiactl").toCdi(),
          new HostDeviceNode("/dev/nvidia-uvm", "/run/nvidia/driver/dev/nvidia-uvm").toCdi(),
          new HostDeviceNode("/dev/nvidia-modeset", "/run/nvidia/driver/dev/nvidia-modeset")
              .toCdi());
      assertThat(common.mounts()).extracting(Mount::hostPath, Mount::containerPath).contains(
          tuple(HOST_ROOT + driver.library("libcuda.so"), driver.library("libcuda.so")),
          tuple(HOST_ROOT + "/usr/bin/nvidia-smi", "/usr/bin/nvidia-smi"));
      assertThat(common.hooks()).extracting(Hook::path)
          .containsOnly(HOST_ROOT + "/usr/bin/nvidia-cdi-hook");
    }
  }

  @Test
  void commonEditsNameTheMissingLibcudaOfTheVersionNvmlReports() throws Exception {
    try (NvmlBackend backend = open()) {
      assertThatThrownBy(backend::commonEdits).isInstanceOf(DiscoveryException.class)
          .hasMessageStartingWith("libcuda.so.570.86.15 (needed for the compute capability) not"
              + " found under the driver root " + root);
    }
  }

  @Test
  void aMigDeviceAlsoGetsTheCapabilityNodesOfItsGpuAndComputeInstance() throws Exception {
    Files.createDirectories(root.resolve("dev"));
    Files.createFile(root.resolve("dev/nvidiactl"));
    capability("gpu6/mig/gi9/access", 84);
    capability("gpu6/mig/gi9/ci0/access", 85);
    capability("gpu7/mig/gi2/access", 93);
    capability("gpu7/mig/gi2/ci0/access", 94);
    try (NvmlBackend backend = open()) {
      List<Gpu> gpus = backend.discovery().discover();
      MigDevice gi9 = gpus.get(6).migDevices().get(2);
      MigDevice gi2 = gpus.get(7).migDevices().get(1);
      assertThat(gi9.giId()).isEqualTo(9);
      assertThat(gi2.giId()).isEqualTo(2);

      assertThat(backend.deviceNodes(gpus.get(6), Optional.of(gi9))).containsExactly(
          new HostDeviceNode("/dev/nvidia6", "/run/nvidia/driver/dev/nvidia6"),
          new HostDeviceNode("/dev/nvidia-caps/nvidia-cap84",
              "/run/nvidia/driver/dev/nvidia-caps/nvidia-cap84"),
          new HostDeviceNode("/dev/nvidia-caps/nvidia-cap85",
              "/run/nvidia/driver/dev/nvidia-caps/nvidia-cap85"));
      assertThat(backend.deviceNodes(gpus.get(7), Optional.of(gi2)))
          .extracting(HostDeviceNode::path)
          .containsExactly("/dev/nvidia7", "/dev/nvidia-caps/nvidia-cap93",
              "/dev/nvidia-caps/nvidia-cap94");

      MigDevice gi7 = gpus.get(6).migDevices().get(0);
      assertThatThrownBy(() -> backend.deviceNodes(gpus.get(6), Optional.of(gi7)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(root.resolve("proc/driver/nvidia/capabilities/gpu6/mig/gi7/access")
              + " does not exist");
    }
  }

  @Test
  void withoutDeviceNodesUnderTheDriverRootTheHostPathIsThePath() throws Exception {
    try (NvmlBackend backend = open()) {
      Gpu gpu0 = backend.discovery().discover().get(0);

      assertThat(backend.deviceNodes(gpu0, Optional.empty())).containsExactly(
          new HostDeviceNode("/dev/nvidia0", "/dev/nvidia0"));
    }
  }

  @Test
  void sharingRunsTheFirstNvidiaSmiFoundWithTheNvmlLibraryPreloaded() throws Exception {
    Path log = root.resolve("calls.log");
    script("usr/bin/nvidia-smi", "echo usr-bin >> '" + log + "'\n");
    script("opt/bin/nvidia-smi", "printf '%s ' opt-bin \"$@\" \"$LD_PRELOAD\" >> '" + log + "'\n"
        + "echo >> '" + log + "'\n");
    try (NvmlBackend backend = open()) {
      backend.sharing().apply(new SharingSetting.TimeSlicing(
          SharingSetting.TimeSliceInterval.Short), List.of(NvmlStub.GPUS.get(0).uuid()));
    }

    String uuid = NvmlStub.GPUS.get(0).uuid();
    assertThat(Files.readAllLines(log)).containsExactly(
        "opt-bin -i " + uuid + " -c DEFAULT " + stub.library() + " ",
        "opt-bin compute-policy -i " + uuid + " --set-timeslice 1 " + stub.library() + " ");
  }

  @Test
  void withoutNvidiaSmiSharingFailsNamingThePathsTried() throws Exception {
    try (NvmlBackend backend = open()) {
      backend.sharing().reset(SharingSetting.Mps.unlimited(), List.of());

      assertThatThrownBy(() -> backend.sharing().reset(SharingSetting.Mps.unlimited(),
          List.of(NvmlStub.GPUS.get(0).uuid())))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("nvidia-smi was not found; tried " + root + "/opt/bin/nvidia-smi, "
              + root + "/usr/bin/nvidia-smi, " + root + "/usr/sbin/nvidia-smi, " + root
              + "/bin/nvidia-smi, " + root + "/sbin/nvidia-smi");
    }
  }

  private NvmlBackend open() throws Exception {
    return NvmlBackend.open(stub.options().hostDriverRoot(HOST_ROOT).build());
  }

  private void capability(String relative, int minor) throws IOException {
    Path file = root.resolve("proc/driver/nvidia/capabilities").resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "DeviceFileMinor: " + minor + "\nDeviceFileMode: 292\n"
        + "DeviceFileModify: 1\n", StandardCharsets.UTF_8);
  }

  private void script(String relative, String body) throws IOException {
    Path script = root.resolve(relative);
    Files.createDirectories(script.getParent());
    Files.writeString(script, "#!/bin/sh\n" + body, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
