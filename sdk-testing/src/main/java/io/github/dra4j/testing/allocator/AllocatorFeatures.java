package io.github.dra4j.testing.allocator;

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

  /** Returns a copy with {@link #adminAccess} set. */
  public AllocatorFeatures withAdminAccess(boolean on) {
    return new AllocatorFeatures(on, prioritizedList, partitionableDevices, deviceTaints,
        consumableCapacity, deviceBindingAndStatus);
  }

  /** Returns a copy with {@link #prioritizedList} set. */
  public AllocatorFeatures withPrioritizedList(boolean on) {
    return new AllocatorFeatures(adminAccess, on, partitionableDevices, deviceTaints,
        consumableCapacity, deviceBindingAndStatus);
  }

  /** Returns a copy with {@link #partitionableDevices} set. */
  public AllocatorFeatures withPartitionableDevices(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, on, deviceTaints,
        consumableCapacity, deviceBindingAndStatus);
  }

  /** Returns a copy with {@link #deviceTaints} set. */
  public AllocatorFeatures withDeviceTaints(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, on,
        consumableCapacity, deviceBindingAndStatus);
  }

  /** Returns a copy with {@link #consumableCapacity} set. */
  public AllocatorFeatures withConsumableCapacity(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, deviceTaints,
        on, deviceBindingAndStatus);
  }

  /** Returns a copy with {@link #deviceBindingAndStatus} set. */
  public AllocatorFeatures withDeviceBindingAndStatus(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, deviceTaints,
        consumableCapacity, on);
  }
}
