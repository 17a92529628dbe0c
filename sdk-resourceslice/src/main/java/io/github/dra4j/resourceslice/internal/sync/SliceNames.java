package io.github.dra4j.resourceslice.internal.sync;

import java.util.OptionalLong;

/**
 * Slice names: {@code generateName} is the slice index in lowercase hex, zero-padded,
 * then {@code -<driver>-} and {@code <owner>-} if there is an owner; the API server appends a
 * random suffix. The index prefix makes index order equal name order (the allocator's priority)
 * and lets the controller recognize its slices; names written by older versions lack it and are
 * replaced. Stateless.
 */
public final class SliceNames {

  /** Minimum width of the hex index. */
  public static final int MIN_PAD_WIDTH = 5;

  private SliceNames() {}

  /**
   * Returns the width of the index prefix for a pool.
   *
   * @param sliceCount number of slices in the pool
   * @return max(5, number of hex digits of {@code sliceCount - 1})
   */
  public static int padWidth(int sliceCount) {
    int highest = Math.max(0, sliceCount - 1);
    int digits = Math.max(1, Integer.toHexString(highest).length());
    return Math.max(MIN_PAD_WIDTH, digits);
  }

  /**
   * Builds the {@code generateName} of a slice.
   *
   * @param index the slice index
   * @param padWidth from {@link #padWidth(int)}
   * @param driverName the driver name
   * @param ownerName the owner's name, or null
   * @return e.g. {@code 0000a-gpu.example.com-node-1-}
   */
  public static String generateName(int index, int padWidth, String driverName, String ownerName) {
    String hex = Integer.toHexString(index);
    StringBuilder name = new StringBuilder();
    name.append("0".repeat(Math.max(0, padWidth - hex.length()))).append(hex);
    name.append('-').append(driverName).append('-');
    if (ownerName != null) {
      name.append(ownerName).append('-');
    }
    return name.toString();
  }

  /**
   * Reads the index back from a name, like the Go controller: the first {@code -} must sit exactly
   * at the pad width and the prefix must parse as base 16 (upper case and a leading {@code +}
   * accepted, as Go's {@code ParseInt}).
   *
   * @param name the slice name
   * @param padWidth the pool's current pad width
   * @return the index (possibly negative or out of range), or empty if the name has no valid
   *     prefix
   */
  public static OptionalLong parseIndex(String name, int padWidth) {
    if (name == null || name.indexOf('-') != padWidth) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(name.substring(0, padWidth), 16));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
