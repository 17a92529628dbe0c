package io.github.dra4j.resourceslice;

import java.util.List;

/**
 * The API server stored a slice without some fields the driver set, typically because the feature
 * gate behind them is off. The controller reports this through the {@link ErrorHandler} (message
 * {@code create ResourceSlice} or {@code update ResourceSlice}) and then treats what was stored as
 * desired, so it does not rewrite the slice forever.
 *
 * <p>Message: {@code pool "<pool>", slice #<i>: some fields were dropped by the apiserver,
 * probably because these features are disabled: <features>}, features space-separated in the
 * order {@code DRADeviceTaints DRAPartitionableDevices DRADeviceBindingConditions
 * DRAConsumableCapacity}, or {@code unknown}.
 */
public final class DroppedFieldsException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The name of the pool whose slice lost fields. */
  private final String poolName;

  /** The index of that slice within its pool (the hexadecimal prefix of its name). */
  private final int sliceIndex;

  private final transient Slice desiredSlice;
  private final transient Slice actualSlice;

  /** The feature gates suspected to be off, in detection order; empty when none could be named. */
  private final List<String> features;

  /**
   * Creates the exception.
   *
   * @param poolName the pool
   * @param sliceIndex the slice's index in the pool
   * @param desiredSlice what the driver wanted
   * @param actualSlice what the server stored
   * @param features the suspected disabled features, in detection order (empty: unknown)
   */
  public DroppedFieldsException(
      String poolName, int sliceIndex, Slice desiredSlice, Slice actualSlice,
      List<String> features) {
    super("pool \"" + poolName + "\", slice #" + sliceIndex
        + ": some fields were dropped by the apiserver, probably because these features are"
        + " disabled: " + (features.isEmpty() ? "unknown" : String.join(" ", features)));
    this.poolName = poolName;
    this.sliceIndex = sliceIndex;
    this.desiredSlice = desiredSlice;
    this.actualSlice = actualSlice;
    this.features = List.copyOf(features);
  }

  /**
   * Returns the pool name.
   *
   * @return the pool
   */
  public String poolName() {
    return poolName;
  }

  /**
   * Returns the slice index.
   *
   * @return the index in the pool
   */
  public int sliceIndex() {
    return sliceIndex;
  }

  /**
   * Returns what the driver wanted.
   *
   * @return the desired slice content
   */
  public Slice desiredSlice() {
    return desiredSlice;
  }

  /**
   * Returns what the server stored.
   *
   * @return the stored slice content
   */
  public Slice actualSlice() {
    return actualSlice;
  }

  /**
   * Returns the suspected disabled feature gates.
   *
   * @return feature names in detection order; empty if none could be named
   */
  public List<String> features() {
    return features;
  }
}
