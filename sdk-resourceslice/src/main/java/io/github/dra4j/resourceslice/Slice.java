package io.github.dra4j.resourceslice;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.ArrayList;
import java.util.List;

/**
 * The content of one ResourceSlice as the driver wants it published: devices, shared counter
 * sets and per-device node selection. The controller adds the driver name, pool header, node
 * name or selector and owner.
 *
 * <p>The lists are unmodifiable copies; the fabric8 objects inside are the caller's (fabric8
 * model objects are mutable beans): do not change them after handing them over. The controller
 * takes its own deep copy in {@link ResourceSliceController#update(DriverResources)}.
 *
 * @param devices the devices, in allocation-priority order; never null (null becomes empty)
 * @param sharedCounters the counter sets; never null (null becomes empty)
 * @param perDeviceNodeSelection true if every device names its own node selection; null leaves
 *     the field unset (which differs from false, as in Kubernetes)
 */
public record Slice(
    List<Device> devices,
    @KubernetesAlpha(feature = "DRAPartitionableDevices", since = "1.33", beta = "1.36") List<CounterSet> sharedCounters,
    @KubernetesAlpha(feature = "DRAPartitionableDevices", since = "1.33", beta = "1.36") Boolean perDeviceNodeSelection) {

  /**
   * Copies the lists; null lists become empty, null elements are rejected.
   *
   * @param devices the devices in allocation-priority order; null means none
   * @param sharedCounters the counter sets devices of this pool draw from; null means none
   * @param perDeviceNodeSelection true if every device names its own node selection, false to
   *     publish an explicit false, null to leave the field unset
   * @throws NullPointerException if a list holds a null element
   */
  public Slice {
    devices = devices == null ? List.of() : List.copyOf(devices);
    sharedCounters = sharedCounters == null ? List.of() : List.copyOf(sharedCounters);
  }

  /**
   * Creates a slice of devices with nothing else set.
   *
   * @param devices the devices
   * @return the slice
   */
  public static Slice of(List<Device> devices) {
    return new Slice(devices, List.of(), null);
  }

  /**
   * Starts building a slice.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link Slice}. Not thread-safe. */
  public static final class Builder {
    private final List<Device> devices = new ArrayList<>();
    private final List<CounterSet> sharedCounters = new ArrayList<>();
    private Boolean perDeviceNodeSelection;

    private Builder() {}

    /**
     * Appends devices.
     *
     * @param devices the devices to add
     * @return this builder
     */
    public Builder devices(List<Device> devices) {
      this.devices.addAll(devices);
      return this;
    }

    /**
     * Appends one device.
     *
     * @param device the device
     * @return this builder
     */
    public Builder addDevice(Device device) {
      devices.add(device);
      return this;
    }

    /**
     * Appends counter sets, for partitionable devices (Kubernetes feature DRAPartitionableDevices:
     * alpha in 1.33, beta and on by default in 1.36; an API server with it off drops the field,
     * which the controller reports as {@link DroppedFieldsException}).
     *
     * @param counterSets the counter sets
     * @return this builder
     */
    @KubernetesAlpha(feature = "DRAPartitionableDevices", since = "1.33", beta = "1.36")
    public Builder sharedCounters(List<CounterSet> counterSets) {
      sharedCounters.addAll(counterSets);
      return this;
    }

    /**
     * Appends one counter set (partitionable devices, beta in Kubernetes 1.36).
     *
     * @param counterSet the counter set
     * @return this builder
     */
    @KubernetesAlpha(feature = "DRAPartitionableDevices", since = "1.33", beta = "1.36")
    public Builder addSharedCounter(CounterSet counterSet) {
      sharedCounters.add(counterSet);
      return this;
    }

    /**
     * Sets per-device node selection (partitionable devices, beta in Kubernetes 1.36).
     *
     * @param perDeviceNodeSelection true, false or null (unset)
     * @return this builder
     */
    public Builder perDeviceNodeSelection(Boolean perDeviceNodeSelection) {
      this.perDeviceNodeSelection = perDeviceNodeSelection;
      return this;
    }

    /**
     * Builds the slice.
     *
     * @return the slice
     */
    public Slice build() {
      return new Slice(devices, sharedCounters, perDeviceNodeSelection);
    }
  }
}
