package io.github.dra4j.examples.gpu.discovery;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Simulated GPUs, the driver's default backend: {@code count} identical GPUs of 80 GiB, whose
 * UUIDs derive from the node's name and the GPU's index, so they stay the same across restarts
 * and differ from node to node. PCI bus IDs are made up in the same way (four GPUs per PCIe
 * root). Immutable; thread-safe.
 */
public final class SimulatedGpus implements GpuDiscovery {

  /** The product name of a simulated GPU. */
  public static final String PRODUCT_NAME = "dra4j SimGPU 80GB";

  /** Memory of a simulated GPU: 80 GiB. */
  public static final long MEMORY_BYTES = 80L << 30;

  private final String nodeName;
  private final int count;

  /**
   * Simulates a node's GPUs.
   *
   * @param nodeName the node's name, which seeds the UUIDs
   * @param count how many GPUs, 0 to 128
   */
  public SimulatedGpus(String nodeName, int count) {
    if (count < 0 || count > 128) {
      throw new IllegalArgumentException("NUM_DEVICES must be from 0 to 128, got " + count);
    }
    this.nodeName = nodeName;
    this.count = count;
  }

  @Override
  public List<Gpu> discover() {
    List<Gpu> gpus = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      gpus.add(new Gpu(i, uuid(i), PRODUCT_NAME, "Simulated", "Simulated", "9.0.0", "1.0.0",
          "12.8.0", Optional.of(String.format("0000:%02x:00.0", 0x10 + i)),
          Optional.of(String.format("pci0000:%02x", 0x10 + i / 4 * 4)), MEMORY_BYTES, 100,
          false, List.of()));
    }
    return gpus;
  }

  /**
   * The UUID of a simulated GPU.
   *
   * @param index the GPU's index
   * @return {@code GPU-} and a UUID derived from the node's name and the index
   */
  public String uuid(int index) {
    return "GPU-" + UUID.nameUUIDFromBytes(("dra4j-simulated-gpu/" + nodeName + "/" + index)
        .getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String describe() {
    return "simulated, " + count + " GPUs";
  }
}
