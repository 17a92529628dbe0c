package io.github.dra4j.examples.gpu.sharing;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * How a group of GPUs is shared, as applied on the node: the normalized form of a claim's {@code
 * sharing} configuration.
 */
public sealed interface SharingSetting {

  /**
   * Time slicing: processes take turns; {@code interval} sets how long a turn is.
   *
   * @param interval the time slice
   */
  record TimeSlicing(TimeSliceInterval interval) implements SharingSetting {
    /**
     * Checks the fields.
     *
     * @param interval the time slice
     */
    public TimeSlicing {
      Objects.requireNonNull(interval, "interval");
    }
  }

  /**
   * Space partitioning: the GPU is split into {@code partitionCount} parts (a setting the
   * workload reads; nothing changes on the hardware).
   *
   * @param partitionCount the number of parts, at least 1
   */
  record SpacePartitioning(int partitionCount) implements SharingSetting {}

  /**
   * CUDA MPS: processes run at once on one GPU, each limited to a share of its threads and
   * memory.
   *
   * @param activeThreadPercentage the share of threads each client may use, 1 to 100
   * @param pinnedMemoryLimitBytes the device memory each client may pin, if limited
   */
  record Mps(int activeThreadPercentage, OptionalLong pinnedMemoryLimitBytes)
      implements SharingSetting {
    /**
     * Checks the fields.
     *
     * @param activeThreadPercentage the share of threads each client may use, 1 to 100
     * @param pinnedMemoryLimitBytes the device memory each client may pin, if limited
     */
    public Mps {
      Objects.requireNonNull(pinnedMemoryLimitBytes, "pinnedMemoryLimitBytes");
    }
  }

  /** The length of a time slice, as {@code nvidia-smi compute-policy --set-timeslice} numbers it. */
  enum TimeSliceInterval {
    /** The driver's default (0). */
    Default,
    /** Short (1). */
    Short,
    /** Medium (2). */
    Medium,
    /** Long (3). */
    Long;

    /**
     * The number {@code nvidia-smi} takes.
     *
     * @return 0 to 3
     */
    public int number() {
      return ordinal();
    }
  }
}
