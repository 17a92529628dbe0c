package io.github.dra4j.testing.cdi.injection;

/**
 * Container edits could not be applied, as a runtime would fail container creation: a device
 * node that is not fully specified is missing on the host, is not a device node, or has another
 * type than declared.
 */
public final class InjectionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed, naming the device path
   * @param cause the underlying error, or null
   */
  public InjectionException(String message, Throwable cause) {
    super(message, cause);
  }
}
