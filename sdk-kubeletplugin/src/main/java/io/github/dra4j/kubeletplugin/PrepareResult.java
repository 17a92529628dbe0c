package io.github.dra4j.kubeletplugin;

import java.util.List;

/**
 * The outcome of preparing one claim: either devices, or an error message.
 *
 * @param devices the devices containers get (empty when failed)
 * @param error null on success, else why this claim could not be prepared
 * @param cause the driver's exception behind {@code error}, logged with its stack trace but never
 *     sent to the kubelet; null if none
 */
public record PrepareResult(List<PreparedDevice> devices, String error, Throwable cause) {

  /**
   * Copies the device list.
   *
   * @param devices the devices containers get, copied; not null and without null elements, empty
   *     for a failed claim
   * @param error null on success; otherwise why this claim could not be prepared, which the kubelet
   *     reports in the pod's events (other claims of the same call are unaffected)
   * @param cause the exception behind a failure, for the plugin's log; null if none
   * @throws NullPointerException if {@code devices} or one of its elements is null
   * @throws IllegalArgumentException if a cause is given without an error
   */
  public PrepareResult {
    devices = List.copyOf(devices);
    if (cause != null && error == null) {
      throw new IllegalArgumentException("a PrepareResult with a cause must have an error");
    }
  }

  /**
   * A result without a cause.
   *
   * @param devices the devices containers get; empty for a failed claim
   * @param error null on success, else why this claim could not be prepared
   */
  public PrepareResult(List<PreparedDevice> devices, String error) {
    this(devices, error, null);
  }

  /**
   * A successful preparation.
   *
   * @param devices the prepared devices
   * @return the result
   */
  public static PrepareResult prepared(List<PreparedDevice> devices) {
    return new PrepareResult(devices, null, null);
  }

  /**
   * A successful preparation.
   *
   * @param devices the prepared devices
   * @return the result
   */
  public static PrepareResult prepared(PreparedDevice... devices) {
    return new PrepareResult(List.of(devices), null, null);
  }

  /**
   * A failed preparation of this claim only.
   *
   * @param error the reason, shown in the pod's events
   * @return the result
   */
  public static PrepareResult failed(String error) {
    return new PrepareResult(List.of(), error, null);
  }

  /**
   * A failed preparation of this claim only, keeping the exception for the plugin's log.
   *
   * @param error the reason, shown in the pod's events
   * @param cause the exception behind it, logged with its stack trace (the kubelet sees only
   *     {@code error})
   * @return the result
   */
  public static PrepareResult failed(String error, Throwable cause) {
    return new PrepareResult(List.of(), error, cause);
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
