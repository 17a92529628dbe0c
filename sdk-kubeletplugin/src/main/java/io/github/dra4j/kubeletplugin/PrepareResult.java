package io.github.dra4j.kubeletplugin;

import java.util.List;

/**
 * The outcome of preparing one claim: either devices, or an error message.
 *
 * @param devices the devices containers get (empty when failed)
 * @param error null on success, else why this claim could not be prepared
 */
public record PrepareResult(List<PreparedDevice> devices, String error) {

  /**
   * Copies the device list.
   *
   * @param devices the devices containers get, copied; not null and without null elements, empty
   *     for a failed claim
   * @param error null on success; otherwise why this claim could not be prepared, which the kubelet
   *     reports in the pod's events (other claims of the same call are unaffected)
   * @throws NullPointerException if {@code devices} or one of its elements is null
   */
  public PrepareResult {
    devices = List.copyOf(devices);
  }

  /**
   * A successful preparation.
   *
   * @param devices the prepared devices
   * @return the result
   */
  public static PrepareResult prepared(List<PreparedDevice> devices) {
    return new PrepareResult(devices, null);
  }

  /**
   * A successful preparation.
   *
   * @param devices the prepared devices
   * @return the result
   */
  public static PrepareResult prepared(PreparedDevice... devices) {
    return new PrepareResult(List.of(devices), null);
  }

  /**
   * A failed preparation of this claim only.
   *
   * @param error the reason, shown in the pod's events
   * @return the result
   */
  public static PrepareResult failed(String error) {
    return new PrepareResult(List.of(), error);
  }

  /**
   * Whether the claim failed.
   *
   * @return true if {@link #error()} is set
   */
  public boolean isFailed() {
    return error != null;
  }
}
