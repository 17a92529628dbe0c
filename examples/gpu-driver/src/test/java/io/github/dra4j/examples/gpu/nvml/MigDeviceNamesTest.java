package io.github.dra4j.examples.gpu.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.core.name.NameFormats;
import io.github.dra4j.examples.gpu.devices.DeviceNames;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every MIG profile name NVML can report becomes part of a valid device name: a DNS label (a
 * {@code +me} profile once took a node's whole pool down, the API server refusing it), unique
 * for every profile and placement, and the same each time it is made.
 */
class MigDeviceNamesTest {

  private static final long MIB = 1024L * 1024L;

  /** Profile indexes NVML defines ({@code NVML_GPU_INSTANCE_PROFILE_1_SLICE} to {@code _REV2}). */
  private static final int PROFILE_INDEXES = 17;

  private static final int[] SLICES = {1, 2, 3, 4, 7, 8, 6, 1, 2, 1, 1, 2, 4, 1, 2, 1, 2};

  private static Gpu gpu(int minor, long memoryBytes) {
    return new Gpu(minor, "GPU-00000000-0000-0000-0000-00000000000" + minor, "NVIDIA H100",
        "Nvidia", "Hopper", "9.0", "580.65.06", "13.0", Optional.empty(), Optional.empty(),
        memoryBytes, 132, true, List.of());
  }

  @Test
  void everyProfileNvmlReportsMakesAValidUniqueStableDeviceName() {
    Set<String> names = new HashSet<>();
    List<Long> gpuSizes = List.of(81559 * MIB, 40960 * MIB, 143771 * MIB, 0L);
    for (int minor : new int[] {0, 7, 255}) {
      for (long gpuBytes : gpuSizes) {
        Gpu gpu = gpu(minor, gpuBytes);
        for (int index = 0; index < PROFILE_INDEXES; index++) {
          String profile = NvmlFormats.migProfileName(index, SLICES[index],
              SLICES[index] * 10_240L, gpuBytes);
          for (int start = 0; start < 8; start++) {
            MigDevice mig = new MigDevice("MIG-x", profile, 100 + index, start, 1, 1, 0,
                0, 1, 1, 0, 0, 0, 0);
            String name = DeviceNames.mig(gpu, mig);
            assertThat(NameFormats.dns1123Label(name)).as("%s from %s", name, profile)
                .isEmpty();
            assertThat(DeviceNames.mig(gpu, mig)).as("stable").isEqualTo(name);
            assertThat(DeviceNames.isMig(name)).isTrue();
            names.add(gpuBytes + "/" + name);
          }
        }
      }
    }
    assertThat(names).as("one name per GPU, profile and placement")
        .hasSize(3 * 4 * PROFILE_INDEXES * 8);
  }

  @Test
  void profileNamesBecomeLabelPartsAsNvidiasDriverWritesThem() {
    assertThat(DeviceNames.profileLabel("1g.10gb")).isEqualTo("1g10gb");
    assertThat(DeviceNames.profileLabel("1g.10gb+me")).isEqualTo("1g10gb-me");
    assertThat(DeviceNames.profileLabel("1g.10gb+me.all")).isEqualTo("1g10gb-meall");
    assertThat(DeviceNames.profileLabel("1g.12gb+gfx")).isEqualTo("1g12gb-gfx");
    assertThat(DeviceNames.profileLabel("1g.5gb-me")).isEqualTo("1g5gb-me");
    assertThat(DeviceNames.profileLabel("1c.3g.40gb")).isEqualTo("1c3g40gb");
    assertThat(DeviceNames.profileLabel("7G.80GB")).isEqualTo("7g80gb");
    assertThat(DeviceNames.profileLabel("+a..b++c+")).isEqualTo("ab-c");
    assertThat(DeviceNames.profileLabel("+.+")).isEqualTo("mig");
  }
}
