package io.github.dra4j.resourceslice;

/**
 * {@link ControllerOptions.Builder#start()} failed: bad options, or the informer
 * could not list ResourceSlices. Message {@code create controller: <cause>}, cause kept.
 */
public final class ControllerStartException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param cause why the controller could not start
   */
  public ControllerStartException(Throwable cause) {
    super("create controller: " + cause.getMessage(), cause);
  }
}
