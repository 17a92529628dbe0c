package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.examples.gpu.backend.HostDeviceNode;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Looking up NVML and nvidia-smi under the driver root, and host paths. */
class DriverRootTest {

  @TempDir
  Path root;

  @Test
  void theLibraryIsLookedUpInOrder() throws Exception {
    DriverRoot driverRoot = new DriverRoot(root, Path.of("/"));
    file("lib/aarch64-linux-gnu/libnvidia-ml.so.1");
    assertThat(driverRoot.findLibrary())
        .isEqualTo(root.resolve("lib/aarch64-linux-gnu/libnvidia-ml.so.1"));

    file("lib64/libnvidia-ml.so.1");
    assertThat(driverRoot.findLibrary()).isEqualTo(root.resolve("lib64/libnvidia-ml.so.1"));

    file("usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1");
    assertThat(driverRoot.findLibrary())
        .isEqualTo(root.resolve("usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1"));

    file("usr/lib64/libnvidia-ml.so.1");
    assertThat(driverRoot.findLibrary()).isEqualTo(root.resolve("usr/lib64/libnvidia-ml.so.1"));
  }

  @Test
  void aDirectoryWithTheLibrarysNameIsNotTheLibrary() throws Exception {
    Files.createDirectories(root.resolve("usr/lib64/libnvidia-ml.so.1"));
    file("usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1");

    assertThat(new DriverRoot(root, Path.of("/")).findLibrary())
        .isEqualTo(root.resolve("usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1"));
  }

  @Test
  void aMissingLibraryNamesEveryPathTried() {
    assertThatThrownBy(() -> new DriverRoot(root, Path.of("/")).findLibrary())
        .isInstanceOf(DiscoveryException.class)
        .hasMessage("libnvidia-ml.so.1 not found under the driver root " + root + " (is the"
            + " NVIDIA driver installed and DRIVER_ROOT_CTR_PATH right?); tried "
            + root + "/usr/lib64/libnvidia-ml.so.1, "
            + root + "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1, "
            + root + "/usr/lib/aarch64-linux-gnu/libnvidia-ml.so.1, "
            + root + "/lib64/libnvidia-ml.so.1, "
            + root + "/lib/x86_64-linux-gnu/libnvidia-ml.so.1, "
            + root + "/lib/aarch64-linux-gnu/libnvidia-ml.so.1");
  }

  @Test
  void nvidiaSmiIsTheFirstExecutableInOrder() throws Exception {
    DriverRoot driverRoot = new DriverRoot(root, Path.of("/"));
    assertThat(driverRoot.findNvidiaSmi()).isEmpty();
    assertThat(driverRoot.nvidiaSmiCandidates()).containsExactly(
        root.resolve("opt/bin/nvidia-smi"), root.resolve("usr/bin/nvidia-smi"),
        root.resolve("usr/sbin/nvidia-smi"), root.resolve("bin/nvidia-smi"),
        root.resolve("sbin/nvidia-smi"));

    executable("sbin/nvidia-smi");
    assertThat(driverRoot.findNvidiaSmi()).contains(root.resolve("sbin/nvidia-smi"));
    executable("usr/bin/nvidia-smi");
    assertThat(driverRoot.findNvidiaSmi()).contains(root.resolve("usr/bin/nvidia-smi"));
    file("opt/bin/nvidia-smi");
    assertThat(driverRoot.findNvidiaSmi()).as("not executable")
        .contains(root.resolve("usr/bin/nvidia-smi"));
  }

  @Test
  void deviceNodesUnderTheDriverRootAreRewrittenToTheHostDriverRoot() throws Exception {
    DriverRoot driverRoot = new DriverRoot(root, Path.of("/run/nvidia/driver"));
    assertThat(driverRoot.deviceNode("/dev/nvidia0"))
        .isEqualTo(new HostDeviceNode("/dev/nvidia0", "/dev/nvidia0"));

    file("dev/nvidiactl");
    assertThat(driverRoot.deviceNode("/dev/nvidia0"))
        .isEqualTo(new HostDeviceNode("/dev/nvidia0", "/run/nvidia/driver/dev/nvidia0"));
    assertThat(driverRoot.deviceExists("/dev/nvidiactl")).isTrue();
    assertThat(driverRoot.deviceExists("/dev/nvidia-uvm")).isFalse();
    assertThat(new DriverRoot(root, Path.of("/")).deviceNode("/dev/nvidia-caps/nvidia-cap21"))
        .isEqualTo(new HostDeviceNode("/dev/nvidia-caps/nvidia-cap21",
            "/dev/nvidia-caps/nvidia-cap21"));
  }

  private void file(String relative) throws IOException {
    Path file = root.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "");
  }

  private void executable(String relative) throws IOException {
    file(relative);
    Files.setPosixFilePermissions(root.resolve(relative),
        PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
