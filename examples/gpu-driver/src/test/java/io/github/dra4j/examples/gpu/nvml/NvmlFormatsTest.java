package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How NVML's raw values are published. */
class NvmlFormatsTest {

  private static final long MIB = 1024L * 1024L;
  private static final long H100_80GB = 81559 * MIB;

  @TempDir
  Path sysfs;

  @Test
  void driverVersionsBecomeSemanticVersions() {
    assertThat(NvmlFormats.semver("driver version", "570.86.15")).isEqualTo("570.86.15");
    assertThat(NvmlFormats.semver("driver version", "570.86")).isEqualTo("570.86.0");
    assertThat(NvmlFormats.semver("driver version", "570")).isEqualTo("570.0.0");
    assertThat(NvmlFormats.semver("driver version", "535.104.05")).isEqualTo("535.104.5");
    assertThatThrownBy(() -> NvmlFormats.semver("driver version", "570.86.15.1"))
        .hasMessage("driver version \"570.86.15.1\" is not a version of one to three numbers");
    assertThatThrownBy(() -> NvmlFormats.semver("driver version", "r570"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void cudaAndComputeCapabilityVersions() {
    assertThat(NvmlFormats.cudaVersion(12080)).isEqualTo("12.8.0");
    assertThat(NvmlFormats.cudaVersion(11040)).isEqualTo("11.4.0");
    assertThat(NvmlFormats.cudaVersion(13000)).isEqualTo("13.0.0");
    assertThat(NvmlFormats.computeCapability(9, 0)).isEqualTo("9.0.0");
    assertThat(NvmlFormats.computeCapability(8, 6)).isEqualTo("8.6.0");
  }

  @Test
  void busIdsTakeTheSysfsForm() {
    assertThat(NvmlFormats.busId("00000000:1B:00.0")).contains("0000:1b:00.0");
    assertThat(NvmlFormats.busId("0001:C3:1F.7")).contains("0001:c3:1f.7");
    assertThat(NvmlFormats.busId("")).isEmpty();
    assertThat(NvmlFormats.busId("1B:00.0")).isEmpty();
  }

  @Test
  void thePcieRootIsTheRootComplexInTheSysfsLink() throws Exception {
    Path devices = Files.createDirectories(sysfs.resolve("bus/pci/devices"));
    Files.createSymbolicLink(devices.resolve("0000:1b:00.0"),
        Path.of("../../../devices/pci0000:16/0000:16:02.0/0000:17:00.0/0000:1b:00.0"));
    Files.createSymbolicLink(devices.resolve("0000:43:00.0"), Path.of("../../../devices/odd"));

    assertThat(NvmlFormats.pcieRoot(sysfs, "0000:1b:00.0")).contains("pci0000:16");
    assertThat(NvmlFormats.pcieRoot(sysfs, "0000:43:00.0")).isEmpty();
    assertThat(NvmlFormats.pcieRoot(sysfs, "0000:52:00.0")).isEmpty();
  }

  @Test
  void brandsAndArchitecturesHaveNames() {
    assertThat(NvmlFormats.brand(14)).isEqualTo("Nvidia");
    assertThat(NvmlFormats.brand(2)).isEqualTo("Tesla");
    assertThat(NvmlFormats.brand(15)).isEqualTo("GeForceRTX");
    assertThat(NvmlFormats.brand(99)).isEqualTo("Unknown99");
    assertThat(NvmlFormats.architecture(2)).isEqualTo("Kepler");
    assertThat(NvmlFormats.architecture(7)).isEqualTo("Ampere");
    assertThat(NvmlFormats.architecture(8)).isEqualTo("Ada");
    assertThat(NvmlFormats.architecture(9)).isEqualTo("Hopper");
    assertThat(NvmlFormats.architecture(10)).isEqualTo("Blackwell");
    assertThat(NvmlFormats.architecture(0xFFFFFFFF)).isEqualTo("Unknown");
  }

  @Test
  void migProfileNamesFollowNvidiaSmi() {
    assertThat(NvmlFormats.migProfileName(0, 1, 9856, H100_80GB)).isEqualTo("1g.10gb");
    assertThat(NvmlFormats.migProfileName(7, 1, 9856, H100_80GB)).isEqualTo("1g.10gb+me");
    assertThat(NvmlFormats.migProfileName(9, 1, 19968, H100_80GB)).isEqualTo("1g.20gb");
    assertThat(NvmlFormats.migProfileName(1, 2, 20096, H100_80GB)).isEqualTo("2g.20gb");
    assertThat(NvmlFormats.migProfileName(2, 3, 40320, H100_80GB)).isEqualTo("3g.40gb");
    assertThat(NvmlFormats.migProfileName(3, 4, 40320, H100_80GB)).isEqualTo("4g.40gb");
    assertThat(NvmlFormats.migProfileName(4, 7, 80896, H100_80GB)).isEqualTo("7g.80gb");
    assertThat(NvmlFormats.migProfileName(0, 1, 4864, 40960 * MIB)).as("A100 40GB")
        .isEqualTo("1g.5gb");
    assertThat(NvmlFormats.migProfileName(13, 1, 4864, 0)).as("GPU memory unknown")
        .isEqualTo("1g.5gb-me");
  }
}
