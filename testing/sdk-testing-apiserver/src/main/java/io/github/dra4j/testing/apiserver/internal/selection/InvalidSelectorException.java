package io.github.dra4j.testing.apiserver.internal.selection;

/** A label or field selector the server cannot parse or does not support (HTTP 400). */
public final class InvalidSelectorException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the message the server returns, e.g. {@code field label not supported: x}
   */
  public InvalidSelectorException(String message) {
    super(message);
  }
}
