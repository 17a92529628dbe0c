package io.github.dra4j.examples.gpu.devices;

import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One device the driver offers, and the hardware behind it.
 *
 * @param name its name in the pool ({@link DeviceNames})
 * @param type its {@code type} attribute
 * @param gpu the physical GPU it is, or is part of
 * @param partition the partition's index, for a partition
 * @param mig the MIG device, for a MIG device
 */
public record GpuDevice(String name, DeviceType type, Gpu gpu, OptionalInt partition,
    Optional<MigDevice> mig) {

  /**
   * Checks the fields.
   *
   * @param name not null
   * @param type not null
   * @param gpu not null
   * @param partition present for a partition
   * @param mig present for a MIG device
   */
  public GpuDevice {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(gpu, "gpu");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(mig, "mig");
  }

  /**
   * The UUID a container's CUDA sees: the MIG device's own, or the GPU's.
   *
   * @return the UUID
   */
  public String uuid() {
    return mig.map(MigDevice::uuid).orElse(gpu.uuid());
  }
}
