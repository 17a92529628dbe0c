package io.github.dra4j.examples.gpu.discovery;

/** A discovery backend could not find the GPUs; the message says what was tried. */
public final class DiscoveryException extends Exception {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed, naming the library, file or call
   */
  public DiscoveryException(String message) {
    super(message);
  }

  /**
   * Creates the exception with a cause.
   *
   * @param message what failed
   * @param cause why
   */
  public DiscoveryException(String message, Throwable cause) {
    super(message, cause);
  }
}
