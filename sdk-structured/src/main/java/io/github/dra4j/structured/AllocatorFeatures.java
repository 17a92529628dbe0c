package io.github.dra4j.structured;

/**
 * The DRA features the allocator honours, mirroring the Kubernetes allocator flags (and the
 * feature gates behind them). {@link #ALL} is what a default Kubernetes 1.36 scheduler runs.
 *
 * @param adminAccess DRAAdminAccess: {@code adminAccess} requests
 * @param prioritizedList DRAPrioritizedList: {@code firstAvailable} subrequests
 * @param partitionableDevices DRAPartitionableDevices: shared counters and per-device node
 *     selection
 * @param deviceTaints DRADeviceTaints: taints block allocation unless tolerated
 * @param consumableCapacity DRAConsumableCapacity: capacity requests and shareable devices
 * @param deviceBindingAndStatus DRADeviceBindingConditions and DRAResourceClaimDeviceStatus:
 *     devices with binding conditions
 */
public record AllocatorFeatures(
    boolean adminAccess,
    boolean prioritizedList,
    boolean partitionableDevices,
    boolean deviceTaints,
    boolean consumableCapacity,
    boolean deviceBindingAndStatus) {

  /** Every feature on (the default). */
  public static final AllocatorFeatures ALL = new AllocatorFeatures(true, true, true, true, true, true);

  /** Every feature off: only the GA core of structured parameters. */
  public static final AllocatorFeatures NONE =
      new AllocatorFeatures(false, false, false, false, false, false);

  /**
   * Returns a copy with {@link #adminAccess} set.
   *
   * @param on true lets requests with {@code adminAccess} be allocated (also to devices in
   *     use); false makes such a request fail the whole attempt
   * @return a new value equal to this one except for {@code adminAccess}
   */
  public AllocatorFeatures withAdminAccess(boolean on) {
    return new AllocatorFeatures(on, prioritizedList, partitionableDevices, deviceTaints,
        consumableCapacity, deviceBindingAndStatus);
  }

  /**
   * Returns a copy with {@link #prioritizedList} set.
   *
   * @param on true tries {@code firstAvailable} subrequests in order; false makes a
   *     request with subrequests fail the whole attempt
   * @return a new value equal to this one except for {@code prioritizedList}
   */
  public AllocatorFeatures withPrioritizedList(boolean on) {
    return new AllocatorFeatures(adminAccess, on, partitionableDevices, deviceTaints,
        consumableCapacity, deviceBindingAndStatus);
  }

  /**
   * Returns a copy with {@link #partitionableDevices} set.
   *
   * @param on true honours shared counters and per-device node selection;
   *     false ignores slices that use them and never picks a device that consumes counters
   * @return a new value equal to this one except for {@code partitionableDevices}
   */
  public AllocatorFeatures withPartitionableDevices(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, on, deviceTaints,
        consumableCapacity, deviceBindingAndStatus);
  }

  /**
   * Returns a copy with {@link #deviceTaints} set.
   *
   * @param on true skips tainted devices unless the request tolerates every taint;
   *     false ignores taints
   * @return a new value equal to this one except for {@code deviceTaints}
   */
  public AllocatorFeatures withDeviceTaints(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, on,
        consumableCapacity, deviceBindingAndStatus);
  }

  /**
   * Returns a copy with {@link #consumableCapacity} set.
   *
   * @param on true honours capacity requests and shares devices that allow
   *     multiple allocations; false makes a request with capacity requests fail the attempt
   * @return a new value equal to this one except for {@code consumableCapacity}
   */
  public AllocatorFeatures withConsumableCapacity(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, deviceTaints,
        on, deviceBindingAndStatus);
  }

  /**
   * Returns a copy with {@link #deviceBindingAndStatus} set.
   *
   * @param on true allocates devices with binding conditions and puts the
   *     conditions into the result; false skips such devices
   * @return a new value equal to this one except for {@code deviceBindingAndStatus}
   */
  public AllocatorFeatures withDeviceBindingAndStatus(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, deviceTaints,
        consumableCapacity, on);
  }
}
