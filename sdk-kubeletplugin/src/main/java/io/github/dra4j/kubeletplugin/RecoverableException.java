package io.github.dra4j.kubeletplugin;

/**
 * Marks a background error the plugin recovers from by itself, such as a failed ResourceSlice
 * write that will be retried. Delivered to {@link DraDriver#handleError}; the original error is
 * the cause.
 */
public final class RecoverableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Wraps an error as recoverable.
   *
   * @param cause the original error
   */
  public RecoverableException(Throwable cause) {
    super("recoverable error: " + cause.getMessage(), cause);
  }

  /**
   * Whether an error, or any error in its cause chain, is marked recoverable.
   *
   * @param error an error
   * @return true if recoverable
   */
  public static boolean isRecoverable(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof RecoverableException) {
        return true;
      }
    }
    return false;
  }
}
