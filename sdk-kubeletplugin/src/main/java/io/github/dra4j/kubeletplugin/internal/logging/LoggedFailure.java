package io.github.dra4j.kubeletplugin.internal.logging;

/**
 * The cause given to a failed call's gRPC status once the failure was logged where it happened,
 * with the claims it concerns and the stack trace: the call's observer sees it and logs no second
 * ERROR line for the same failure. The original exception is this one's cause, so code that walks
 * a status's causes still finds it.
 *
 * <p>Immutable; carries no stack trace of its own.
 */
public final class LoggedFailure extends Exception {

  private static final long serialVersionUID = 1L;

  /**
   * Wraps a failure that has been logged.
   *
   * @param logged the exception, already logged with its stack trace
   */
  public LoggedFailure(Throwable logged) {
    super("already logged: " + logged, logged, false, false);
  }

  /**
   * Whether a status's cause is a failure that was logged where it happened.
   *
   * @param cause the cause of a call's status, or null
   * @return true for a {@link LoggedFailure}
   */
  public static boolean isLogged(Throwable cause) {
    return cause instanceof LoggedFailure;
  }
}
