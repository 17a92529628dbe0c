package io.github.dra4j.testing.cdi.registry;

import io.github.dra4j.cdi.spec.ContainerEdits;
import java.util.List;

/**
 * Devices resolved for one container and the merged edits a runtime applies for them.
 *
 * @param devices the devices in request order
 * @param edits each spec's own edits (the first time one of its devices is met), then each
 *     device's edits, concatenated
 */
public record ResolvedDevices(List<RegisteredDevice> devices, ContainerEdits edits) {

  /**
   * Copies the device list.
   *
   * @param devices the devices in request order
   * @param edits each spec's own edits (the first time one of its devices is met), then each
   *     device's edits, concatenated
   */
  public ResolvedDevices {
    devices = List.copyOf(devices);
  }
}
