package io.github.dra4j.resourceslice.internal.sync;

import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.github.dra4j.resourceslice.Slice;
import io.github.dra4j.resourceslice.internal.compare.SemanticEquality;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The controller's stored desired content of one slice. Unlike the driver's immutable {@link
 * Slice}, it changes after a write: server-defaulted taint times are copied in, and
 * fields the server dropped are given up so the slice is not rewritten forever. Owned by the
 * controller's worker thread once published through a {@link DesiredState}.
 */
public final class DesiredSlice {

  private List<Device> devices;
  private List<CounterSet> sharedCounters;
  private Boolean perDeviceNodeSelection;
  private List<JsonNode> deviceContent; // built on first comparison, dropped when devices change

  DesiredSlice(List<Device> devices, List<CounterSet> sharedCounters,
      Boolean perDeviceNodeSelection) {
    this.devices = devices;
    this.sharedCounters = sharedCounters;
    this.perDeviceNodeSelection = perDeviceNodeSelection;
  }

  /**
   * Returns the devices (controller-owned copies).
   *
   * @return the devices
   */
  public List<Device> devices() {
    return devices;
  }

  /**
   * Returns the counter sets (controller-owned copies).
   *
   * @return the counter sets
   */
  public List<CounterSet> sharedCounters() {
    return sharedCounters;
  }

  /**
   * Returns per-device node selection.
   *
   * @return true, false or null
   */
  public Boolean perDeviceNodeSelection() {
    return perDeviceNodeSelection;
  }

  /** Replaces the content with what the server stored, so the next comparison sees it. */
  void acceptStored(List<Device> devices, List<CounterSet> sharedCounters,
      Boolean perDeviceNodeSelection) {
    this.devices = devices;
    this.sharedCounters = sharedCounters;
    this.perDeviceNodeSelection = perDeviceNodeSelection;
    this.deviceContent = null;
  }

  /**
   * Returns the normalized content of each device without taints, computed once per device list.
   *
   * @param equality the comparator that defines the content
   * @return {@link SemanticEquality#contentOf} of each device, in order
   */
  List<JsonNode> deviceContent(SemanticEquality equality) {
    if (deviceContent == null) {
      deviceContent = devices.stream().map(equality::contentOf).toList();
    }
    return deviceContent;
  }

  /**
   * Returns the content as a driver-side slice.
   *
   * @return an immutable snapshot (sharing the device objects)
   */
  public Slice toSlice() {
    return new Slice(devices, sharedCounters, perDeviceNodeSelection);
  }
}
