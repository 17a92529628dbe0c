package io.github.dra4j.examples.gpu.devices;

import java.util.Locale;

/**
 * The {@code type} attribute of the driver's devices, so that one driver offers one DeviceClass
 * per kind of device ({@code device.attributes['<driver>'].type == 'gpu'}).
 */
public enum DeviceType {
  /** A whole GPU. */
  GPU,
  /** A partition of a GPU (with {@code GPU_PARTITIONS}). */
  PARTITION,
  /** A MIG device (a GPU in MIG mode offers these instead of itself). */
  MIG;

  /**
   * The attribute's value.
   *
   * @return {@code gpu}, {@code partition} or {@code mig}
   */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }
}
