package io.github.dra4j.examples.gpu.nvml.driverfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Symbolic links under a driver root are followed inside the root, never out of it. */
class DriverRootFsTest {

  @TempDir
  Path root;

  @Test
  void linksAreResolvedInsideTheRootWhateverTheySay() throws Exception {
    Path lib = Files.createDirectories(root.resolve("usr/lib64"));
    Files.writeString(lib.resolve("libcuda.so.550.54.15"), "elf");
    Files.createSymbolicLink(lib.resolve("libcuda.so.1"), Path.of("libcuda.so.550.54.15"));
    Files.createSymbolicLink(lib.resolve("absolute"), Path.of("/usr/lib64/libcuda.so.1"));
    Files.createSymbolicLink(lib.resolve("escape"), Path.of("../../../../../../etc/passwd"));
    Files.createSymbolicLink(lib.resolve("loop"), Path.of("loop"));
    Files.createSymbolicLink(root.resolve("lib64"), Path.of("usr/lib64"));
    DriverRootFs fs = new DriverRootFs(root, Path.of("/run/nvidia/driver"));

    assertThat(fs.realPath("/lib64/libcuda.so.1")).contains("/usr/lib64/libcuda.so.550.54.15");
    assertThat(fs.realPath("/usr/lib64/absolute")).contains("/usr/lib64/libcuda.so.550.54.15");
    assertThat(fs.realPath("/usr/lib64/escape")).as("stops at the root, no /etc/passwd there")
        .isEmpty();
    assertThat(fs.realPath("/usr/lib64/loop")).isEmpty();
    assertThat(fs.regularFile("/lib64")).isEmpty();
    assertThat(fs.onHost("/usr/lib64/libcuda.so.1"))
        .isEqualTo("/run/nvidia/driver/usr/lib64/libcuda.so.1");
    assertThatThrownBy(() -> fs.inContainer("/usr/../../etc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("leaves the driver root");
  }
}
