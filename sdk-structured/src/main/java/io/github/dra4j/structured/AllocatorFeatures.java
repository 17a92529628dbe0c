package io.github.dra4j.structured;

import io.github.dra4j.core.stability.KubernetesAlpha;

/**
 * The DRA features the allocator honours, mirroring the Kubernetes allocator flags and the
 * feature gates behind them; the one place each gate is set for the allocator, its selectors
 * included. {@link #DEFAULTS} is what a Kubernetes 1.36 scheduler runs with default gates, {@link
 * #ALL} adds the alpha list-typed attributes.
 *
 * <p>Stages in Kubernetes 1.36: admin access and prioritized lists are GA; partitionable devices,
 * device taints, consumable capacity and binding conditions are beta (on by default); list-typed
 * attributes are alpha (off by default). APIs that follow beta or alpha features may still change
 * in Kubernetes, and this allocator follows them.
 *
 * @param adminAccess DRAAdminAccess: {@code adminAccess} requests
 * @param prioritizedList DRAPrioritizedList: {@code firstAvailable} subrequests
 * @param partitionableDevices DRAPartitionableDevices (beta): shared counters and per-device node
 *     selection
 * @param deviceTaints DRADeviceTaints (beta): taints block allocation unless tolerated
 * @param consumableCapacity DRAConsumableCapacity (beta): capacity requests and shareable devices
 * @param deviceBindingAndStatus DRADeviceBindingConditions and DRAResourceClaimDeviceStatus
 *     (beta): devices with binding conditions
 * @param listTypeAttributes DRAListTypeAttributes (alpha): list-valued attributes in selectors
 *     and set semantics in constraints
 */
public record AllocatorFeatures(
    boolean adminAccess,
    boolean prioritizedList,
    @KubernetesAlpha(feature = "DRAPartitionableDevices", since = "1.33", beta = "1.36") boolean partitionableDevices,
    @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36") boolean deviceTaints,
    @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36") boolean consumableCapacity,
    @KubernetesAlpha(feature = "DRADeviceBindingConditions", since = "1.34", beta = "1.36") boolean deviceBindingAndStatus,
    @KubernetesAlpha(feature = "DRAListTypeAttributes", since = "1.36") boolean listTypeAttributes) {

  /**
   * What a Kubernetes 1.36 scheduler runs with default feature gates, and the allocator's
   * default: every feature on except the alpha {@code listTypeAttributes}.
   */
  public static final AllocatorFeatures DEFAULTS = new AllocatorFeatures(true, true, true, true,
      true, true, false);

  /** Every feature on, including the alpha {@code listTypeAttributes}. */
  public static final AllocatorFeatures ALL = new AllocatorFeatures(true, true, true, true, true,
      true, true);

  /** Every feature off: only the GA core of structured parameters. */
  public static final AllocatorFeatures NONE = new AllocatorFeatures(false, false, false, false,
      false, false, false);

  /**
   * Returns a copy with {@link #adminAccess} set.
   *
   * @param on true lets requests with {@code adminAccess} be allocated (also to devices in
   *     use); false makes such a request fail the whole attempt
   * @return a new value equal to this one except for {@code adminAccess}
   */
  public AllocatorFeatures withAdminAccess(boolean on) {
    return new AllocatorFeatures(on, prioritizedList, partitionableDevices, deviceTaints,
        consumableCapacity, deviceBindingAndStatus, listTypeAttributes);
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
        consumableCapacity, deviceBindingAndStatus, listTypeAttributes);
  }

  /**
   * Returns a copy with {@link #partitionableDevices} set.
   *
   * @param on true honours shared counters and per-device node selection;
   *     false ignores slices that use them and never picks a device that consumes counters
   * @return a new value equal to this one except for {@code partitionableDevices}
   */
  @KubernetesAlpha(feature = "DRAPartitionableDevices", since = "1.33", beta = "1.36")
  public AllocatorFeatures withPartitionableDevices(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, on, deviceTaints,
        consumableCapacity, deviceBindingAndStatus, listTypeAttributes);
  }

  /**
   * Returns a copy with {@link #deviceTaints} set.
   *
   * @param on true skips tainted devices unless the request tolerates every taint;
   *     false ignores taints
   * @return a new value equal to this one except for {@code deviceTaints}
   */
  @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
  public AllocatorFeatures withDeviceTaints(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, on,
        consumableCapacity, deviceBindingAndStatus, listTypeAttributes);
  }

  /**
   * Returns a copy with {@link #consumableCapacity} set.
   *
   * @param on true honours capacity requests and shares devices that allow
   *     multiple allocations; false makes a request with capacity requests fail the attempt
   * @return a new value equal to this one except for {@code consumableCapacity}
   */
  @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36")
  public AllocatorFeatures withConsumableCapacity(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, deviceTaints,
        on, deviceBindingAndStatus, listTypeAttributes);
  }

  /**
   * Returns a copy with {@link #deviceBindingAndStatus} set.
   *
   * @param on true allocates devices with binding conditions and puts the
   *     conditions into the result; false skips such devices
   * @return a new value equal to this one except for {@code deviceBindingAndStatus}
   */
  @KubernetesAlpha(feature = "DRADeviceBindingConditions", since = "1.34", beta = "1.36")
  public AllocatorFeatures withDeviceBindingAndStatus(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, deviceTaints,
        consumableCapacity, on, listTypeAttributes);
  }

  /**
   * Returns a copy with {@link #listTypeAttributes} set.
   *
   * @param on true, like the Kubernetes allocator that runs with the gate on: selectors see
   *     list-valued attributes as lists, and constraints compare attributes as sets
   *     ({@code matchAttribute}: the devices' value sets must have a common value; {@code
   *     distinctAttribute}: they must be disjoint; a scalar is a one-value set). False, like
   *     Kubernetes 1.36 with the gate off: a device whose attribute holds only a list fails every
   *     selector evaluated on it with {@code attribute <name>: unsupported attribute value}
   *     (which aborts the attempt), and constraints see no value in it
   * @return a new value equal to this one except for {@code listTypeAttributes}
   */
  @KubernetesAlpha(feature = "DRAListTypeAttributes", since = "1.36")
  public AllocatorFeatures withListTypeAttributes(boolean on) {
    return new AllocatorFeatures(adminAccess, prioritizedList, partitionableDevices, deviceTaints,
        consumableCapacity, deviceBindingAndStatus, on);
  }
}
