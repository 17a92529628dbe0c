package io.github.dra4j.cel;

import java.util.Objects;

/**
 * The outcome of evaluating one selector against one device: {@link Match}, {@link NoMatch} or
 * {@link Failure}. A failure is never "false": Kubernetes treats it as an error that aborts the
 * allocation attempt.
 */
public sealed interface SelectorResult
    permits SelectorResult.Match, SelectorResult.NoMatch, SelectorResult.Failure {

  /** The expression evaluated to {@code true}. */
  record Match() implements SelectorResult {
    @Override
    public boolean matches() {
      return true;
    }

    @Override
    public boolean failed() {
      return false;
    }
  }

  /** The expression evaluated to {@code false}. */
  record NoMatch() implements SelectorResult {
    @Override
    public boolean matches() {
      return false;
    }

    @Override
    public boolean failed() {
      return false;
    }
  }

  /**
   * The expression failed on this device.
   *
   * @param message the error in Kubernetes' words, e.g. {@code no such key: vendor}
   */
  record Failure(String message) implements SelectorResult {
    private static final String NO_SUCH_KEY_HINT = ". consider using CEL optional chaining (.? followed by orValue()) or guarding the check"
        + " with has() for optional fields";

    /**
     * Checks that a message is present.
     *
     * @param message the error in Kubernetes' words, without the scheduler's hint; not null
     * @throws NullPointerException if {@code message} is null
     */
    public Failure {
      Objects.requireNonNull(message, "message");
    }

    /**
     * Returns the message as the scheduler reports it: a missing key gets the hint to use
     * optional chaining or {@code has()}.
     *
     * @return the message, with the optional-chaining hint appended when it contains {@code no
     *     such key:}; otherwise unchanged
     */
    public String messageWithHint() {
      return message.contains("no such key:") ? message + NO_SUCH_KEY_HINT : message;
    }

    @Override
    public boolean matches() {
      return false;
    }

    @Override
    public boolean failed() {
      return true;
    }
  }

  // The interface has no default methods, so creating a Match or NoMatch never initializes it:
  // these two constants cannot deadlock against a thread creating a result directly.

  /** The shared {@link Match} instance. */
  SelectorResult MATCH = new Match();

  /** The shared {@link NoMatch} instance. */
  SelectorResult NO_MATCH = new NoMatch();

  /**
   * Returns true for {@link Match}.
   *
   * @return true if the expression evaluated to {@code true}; false for a non-match or a failure
   */
  boolean matches();

  /**
   * Returns true for {@link Failure}.
   *
   * @return true if evaluation failed, which aborts an allocation attempt; false for a match or a
   *     non-match
   */
  boolean failed();
}
