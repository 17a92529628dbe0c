package io.github.dra4j.resourceslice.internal.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SliceNamesTest {

  @Test
  void padWidthIsFiveUntilTheIndexNeedsMoreHexDigits() {
    assertThat(SliceNames.padWidth(0)).isEqualTo(5);
    assertThat(SliceNames.padWidth(1)).isEqualTo(5);
    assertThat(SliceNames.padWidth(0x100000)).isEqualTo(5);
    assertThat(SliceNames.padWidth(0x100001)).isEqualTo(6);
  }

  @Test
  void generateNameVectors() {
    assertThat(SliceNames.generateName(0, 5, "gpu.example.com", "node-1"))
        .isEqualTo("00000-gpu.example.com-node-1-");
    assertThat(SliceNames.generateName(10, 5, "d", null)).isEqualTo("0000a-d-");
    assertThat(SliceNames.generateName(100000, 5, "d", null)).isEqualTo("186a0-d-");
    assertThat(SliceNames.generateName(0x100000, 6, "d", "n")).isEqualTo("100000-d-n-");
  }

  @Test
  void parsingNeedsTheDashExactlyAtThePadWidth() {
    assertThat(SliceNames.parseIndex("0000a-d-n-xyz12", 5)).isEqualTo(OptionalLong.of(10));
    assertThat(SliceNames.parseIndex("186a0-d-xyz12", 5)).isEqualTo(OptionalLong.of(100000));
    assertThat(SliceNames.parseIndex("000a-d-xyz12", 5)).isEmpty();
    assertThat(SliceNames.parseIndex("00000a-d-xyz12", 5)).isEmpty();
    assertThat(SliceNames.parseIndex("gpu-node-1-abcde", 5)).isEmpty();
    assertThat(SliceNames.parseIndex("zzzzz-d", 5)).isEmpty();
    assertThat(SliceNames.parseIndex("00000", 5)).isEmpty();
  }

  @Test
  void parsingAcceptsWhatGoParseIntAccepts() {
    assertThat(SliceNames.parseIndex("0000A-d", 5)).isEqualTo(OptionalLong.of(10));
    assertThat(SliceNames.parseIndex("+000a-d", 5)).isEqualTo(OptionalLong.of(10));
  }

  @Test
  void roundTripForEveryWidth() {
    for (int index : new int[] {0, 1, 15, 16, 255, 0xfffff, 0x100000}) {
      int width = SliceNames.padWidth(index + 1);
      assertThat(SliceNames.parseIndex(SliceNames.generateName(index, width, "d", "n") + "abcde",
          width)).isEqualTo(OptionalLong.of(index));
    }
  }
}
