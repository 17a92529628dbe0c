package io.github.dra4j.kubeletplugin;

/**
 * The outcome of unpreparing one claim.
 *
 * @param error null on success, else why the claim could not be unprepared
 */
public record UnprepareResult(String error) {

  private static final UnprepareResult OK = new UnprepareResult(null);

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
    return new UnprepareResult(error);
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
