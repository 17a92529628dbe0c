package io.github.dra4j.cdi.codec;

import java.io.IOException;

/**
 * A spec file's content could not be parsed: not JSON/YAML, an unknown or duplicate key, a value
 * of the wrong type, or no content. Runtimes refuse such files as a whole.
 */
public final class SpecParseException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What was parsed, e.g. the file path. */
  private final String source;

  /**
   * Creates the exception.
   *
   * @param source what was parsed, e.g. the file path
   * @param reason what is wrong, naming the field when known
   * @param cause the parser's exception, or null
   */
  public SpecParseException(String source, String reason, Throwable cause) {
    super("invalid CDI spec " + source + ": " + reason, cause);
    this.source = source;
  }

  /**
   * Returns what was parsed.
   *
   * @return e.g. the file path
   */
  public String source() {
    return source;
  }
}
