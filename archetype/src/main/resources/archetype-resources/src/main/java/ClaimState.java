package ${package};

import java.util.List;

/**
 * What a prepare changed on the node for one claim. The SDK stores it in its checkpoint before
 * the kubelet hears of the prepare, so that unprepare can undo it: after a restart, and in the
 * next version of the driver after an upgrade. Keep it small and keep old fields readable.
 *
 * @param configuredDevices the names of the devices whose settings the prepare changed
 */
public record ClaimState(List<String> configuredDevices) {

  /**
   * Copies the list.
   *
   * @param configuredDevices not null
   */
  public ClaimState {
    configuredDevices = List.copyOf(configuredDevices);
  }
}
