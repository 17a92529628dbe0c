package io.github.dra4j.examples.gpu.devices;

/**
 * How the driver offers its GPUs.
 *
 * @param partitions 0 to offer whole GPUs only; N &gt; 0 to also offer N partitions of each GPU,
 *     which consume from the GPU's counter set as the whole GPU does, so the scheduler never hands
 *     out a GPU and a partition of it at once
 * @param allowMultipleAllocations whether a device may be allocated to several claims at once,
 *     each taking a share of its memory and compute (consumable capacity)
 */
public record DeviceLayout(int partitions, boolean allowMultipleAllocations) {

  /** Whole GPUs, each to one claim. */
  public static final DeviceLayout WHOLE_GPUS = new DeviceLayout(0, false);

  /**
   * Checks the fields.
   *
   * @param partitions not negative, at most 64
   * @param allowMultipleAllocations as given
   */
  public DeviceLayout {
    if (partitions < 0 || partitions > 64) {
      throw new IllegalArgumentException("partitions must be from 0 to 64, got " + partitions);
    }
  }
}
