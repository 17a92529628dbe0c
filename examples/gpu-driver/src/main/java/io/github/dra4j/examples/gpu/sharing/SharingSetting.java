package io.github.dra4j.examples.gpu.sharing;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;

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
   * CUDA MPS: the claim's processes run at once on its GPUs through one MPS control daemon, each
   * client limited to a share of the threads and of the device memory it may pin.
   *
   * @param activeThreadPercentage the share of threads each client may use, 0 to 100; empty for
   *     the daemon's default (100)
   * @param pinnedMemoryLimitBytes the device memory each client may pin on every GPU of the
   *     group, if limited
   * @param pinnedMemoryLimitsByDevice limits for single GPUs, over {@code pinnedMemoryLimitBytes}:
   *     the key is a GPU (or MIG device) UUID of the group, or the decimal index of a device in
   *     the group's UUIDs sorted; the value is bytes
   * @param multiUser whether the daemon serves clients of different Linux users
   */
  record Mps(OptionalInt activeThreadPercentage, OptionalLong pinnedMemoryLimitBytes,
      Map<String, Long> pinnedMemoryLimitsByDevice, boolean multiUser)
      implements
        SharingSetting {
    /**
     * Checks the fields and copies the map.
     *
     * @param activeThreadPercentage the share of threads each client may use, if limited
     * @param pinnedMemoryLimitBytes the device memory each client may pin, if limited
     * @param pinnedMemoryLimitsByDevice limits for single GPUs; null means none
     * @param multiUser whether clients of different users are served
     */
    public Mps {
      Objects.requireNonNull(activeThreadPercentage, "activeThreadPercentage");
      Objects.requireNonNull(pinnedMemoryLimitBytes, "pinnedMemoryLimitBytes");
      pinnedMemoryLimitsByDevice = pinnedMemoryLimitsByDevice == null ? Map.of()
          : Collections.unmodifiableMap(new TreeMap<>(pinnedMemoryLimitsByDevice));
    }

    /**
     * MPS with no limits, for one user.
     *
     * @return the setting
     */
    public static Mps unlimited() {
      return new Mps(OptionalInt.empty(), OptionalLong.empty(), Map.of(), false);
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
      return switch (this) {
        case Default -> 0;
        case Short -> 1;
        case Medium -> 2;
        case Long -> 3;
      };
    }
  }
}
