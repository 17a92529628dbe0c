package io.github.dra4j.cel;

/**
 * A selector expression that does not compile in the DRA CEL environment. The message reads like
 * Kubernetes', e.g. {@code compilation failed: ERROR: <input>:1:1: undeclared reference to
 * 'noSuchVar' (in container '')} followed by the source line and a caret, or {@code must evaluate
 * to bool or the unknown type, not int}.
 */
public final class SelectorCompileException extends Exception {

  /** Serialization version of this exception class. */
  private static final long serialVersionUID = 1L;

  /** The selector expression that failed to compile, as given. */
  private final String expression;

  /** Creates the exception; only the environment does. */
  SelectorCompileException(String expression, String message, Throwable cause) {
    super(message, cause);
    this.expression = expression;
  }

  /**
   * Returns the expression that failed to compile.
   *
   * @return the expression text exactly as given to the compiler
   */
  public String expression() {
    return expression;
  }
}
