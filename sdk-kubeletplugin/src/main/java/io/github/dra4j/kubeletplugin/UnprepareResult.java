package io.github.dra4j.kubeletplugin;

/**
 * The outcome of unpreparing one claim.
 *
 * @param error null on success, else why the claim could not be unprepared
 * @param cause the driver's exception behind {@code error}, logged with its stack trace but never
 *     sent to the kubelet; null if none
 */
public record UnprepareResult(String error, Throwable cause) {

  private static final UnprepareResult OK = new UnprepareResult(null, null);

  /**
   * Checks that a cause comes with an error.
   *
   * @param error null on success, else why the claim could not be unprepared
   * @param cause the exception behind a failure, for the plugin's log; null if none
   * @throws IllegalArgumentException if a cause is given without an error
   */
  public UnprepareResult {
    if (cause != null && error == null) {
      throw new IllegalArgumentException("an UnprepareResult with a cause must have an error");
    }
  }

  /**
   * Success.
   *
   * @return the successful result
   */
  public static UnprepareResult ok() {
    return OK;
  }

  /**
   * Failure of this claim only.
   *
   * @param error the reason
   * @return the result
   */
  public static UnprepareResult failed(String error) {
    return new UnprepareResult(error, null);
  }

  /**
   * Failure of this claim only, keeping the exception for the plugin's log.
   *
   * @param error the reason the kubelet reports
   * @param cause the exception behind it, logged with its stack trace
   * @return the result
   */
  public static UnprepareResult failed(String error, Throwable cause) {
    return new UnprepareResult(error, cause);
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
