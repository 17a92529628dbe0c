package io.github.dra4j.examples.gpu.mps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The commands and the ID of an MPS group, and the settings that fail a claim. */
class MpsGroupTest {

  private static final String UID = "2d1c7f9a-0b3e-4c55-9a61-7e8f0d2b4c10";
  private static final String A = "GPU-1b7f3c52-8a44-4e0d-b6c1-3f9d2a7e0b11";
  private static final String B = "GPU-43a2e9d0-5c17-4b8f-a2d3-8e6f1c4b9a22";

  @Test
  void limitsGoToEveryDeviceOverriddenByUuidOrIndexInWholeMib() {
    MpsGroup group = MpsGroup.of(UID, List.of(B, A), new SharingSetting.Mps(OptionalInt.of(0),
        OptionalLong.of(3L * 1024 * 1024 * 1024 + 5), Map.of("1", 1024L * 1024 * 1024,
            A, 2L * 1024 * 1024 + 1),
        true));

    assertThat(group.uuids()).containsExactly(A, B);
    assertThat(group.commands()).containsExactly("set_default_active_thread_percentage 0",
        "set_default_device_pinned_mem_limit " + A + " 2M",
        "set_default_device_pinned_mem_limit " + B + " 1024M");
    assertThat(group.multiUser()).isTrue();
    assertThat(group.id().value()).startsWith(UID + "-").hasSize(UID.length() + 6);
    assertThat(MpsGroup.of(UID, List.of(A, B), SharingSetting.Mps.unlimited()).id())
        .as("same devices in any order, same ID").isEqualTo(group.id());
  }

  @Test
  void aBadKeyOrATooSmallLimitOrAnUnsafeUidFailsNamingIt() {
    assertThatThrownBy(() -> MpsGroup.of(UID, List.of(A), new SharingSetting.Mps(
        OptionalInt.empty(), OptionalLong.empty(), Map.of("GPU-other", 1L << 30), false)))
        .hasMessageContaining("key \"GPU-other\"").hasMessageContaining("index from 0 to 0");
    assertThatThrownBy(() -> MpsGroup.of(UID, List.of(A), new SharingSetting.Mps(
        OptionalInt.empty(), OptionalLong.of(1024 * 1023), Map.of(), false)))
        .hasMessageContaining("1047552 bytes for device " + A + " is below the minimum of 1Mi");
    assertThatThrownBy(() -> MpsGroup.of("../etc", List.of(A), SharingSetting.Mps.unlimited()))
        .hasMessageContaining("claim UID \"../etc\"");
  }
}
