package io.github.dra4j.examples.gpu.nvml.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Native;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The JNA structs have nvml.h's sizes and field offsets on 64-bit Linux: a field written through
 * JNA is found at the offset a C compiler gives it.
 */
class NvmlStructsTest {

  @Test
  void layoutsMatchNvmlH() {
    Assumptions.assumeTrue(Native.POINTER_SIZE == 8, "the sizes below are for 64-bit");

    NvmlStructs.PciInfo pci = new NvmlStructs.PciInfo();
    pci.domain = 0x1111;
    pci.busId[0] = 'B';
    pci.write();
    assertThat(pci.size()).isEqualTo(68);
    assertThat(pci.getPointer().getInt(16)).isEqualTo(0x1111);
    assertThat(pci.getPointer().getByte(36)).isEqualTo((byte) 'B');

    assertThat(new NvmlStructs.MemoryInfo().size()).isEqualTo(24);

    NvmlStructs.GpuInstanceInfo gi = new NvmlStructs.GpuInstanceInfo();
    gi.placementStart = 5;
    gi.write();
    assertThat(gi.size()).isEqualTo(24);
    assertThat(gi.getPointer().getInt(16)).isEqualTo(5);

    NvmlStructs.GpuInstanceProfileInfo profile = new NvmlStructs.GpuInstanceProfileInfo();
    profile.memorySizeMB = 9856;
    profile.write();
    assertThat(profile.size()).isEqualTo(48);
    assertThat(profile.getPointer().getLong(40)).isEqualTo(9856);

    NvmlStructs.EventData event = new NvmlStructs.EventData();
    event.eventData = 79;
    event.computeInstanceId = 0x2222;
    event.write();
    assertThat(event.size()).isEqualTo(32);
    assertThat(event.getPointer().getLong(16)).isEqualTo(79);
    assertThat(event.getPointer().getInt(28)).isEqualTo(0x2222);
  }
}
