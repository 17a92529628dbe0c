package io.github.dra4j.lifecycle.internal.checkpoint;

import java.io.IOException;

/**
 * The bytes are not a checkpoint this version can read: not JSON, cut short, a checksum that
 * does not match, an unknown {@code apiVersion} or {@code kind}, or a field that is missing, of
 * the wrong type or not valid. The message says what is wrong and, where there is one, names the
 * field path and the value, e.g. {@code claims["abc"].phase: unknown value "Foo"}.
 */
public final class CheckpointFormatException extends IOException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is wrong
   */
  public CheckpointFormatException(String message) {
    super(message);
  }

  /**
   * Creates the exception with its cause.
   *
   * @param message what is wrong
   * @param cause the parser's or a check's exception
   */
  public CheckpointFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
