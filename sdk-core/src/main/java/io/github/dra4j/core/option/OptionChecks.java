package io.github.dra4j.core.option;

import java.time.Duration;
import java.util.Objects;

/**
 * The checks dra4j's builders run on an option when it is set, so a bad value fails at once with
 * a message naming the option and the value ({@code syncDelay must not be negative, got PT-1S}).
 * Stateless.
 */
public final class OptionChecks {

  private OptionChecks() {}

  /**
   * Checks a duration that must be above zero.
   *
   * @param value the value
   * @param option the option's name, for the message
   * @return the value
   * @throws IllegalArgumentException {@code <option> must be positive, got <value>}, also for null
   */
  public static Duration positive(Duration value, String option) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(option + " must be positive, got " + value);
    }
    return value;
  }

  /**
   * Checks a duration that may be zero but not negative.
   *
   * @param value the value
   * @param option the option's name, for the message
   * @return the value
   * @throws NullPointerException naming the option if the value is null
   * @throws IllegalArgumentException {@code <option> must not be negative, got <value>}
   */
  public static Duration nonNegative(Duration value, String option) {
    Objects.requireNonNull(value, option);
    if (value.isNegative()) {
      throw new IllegalArgumentException(option + " must not be negative, got " + value);
    }
    return value;
  }

  /**
   * Checks a count with a lower bound.
   *
   * @param value the value
   * @param minimum the smallest allowed value
   * @param option the option's name, for the message
   * @return the value
   * @throws IllegalArgumentException {@code <option> must be at least <minimum>, got <value>}
   */
  public static int atLeast(int value, int minimum, String option) {
    if (value < minimum) {
      throw new IllegalArgumentException(
          option + " must be at least " + minimum + ", got " + value);
    }
    return value;
  }

  /**
   * Checks a count within bounds.
   *
   * @param value the value
   * @param minimum the smallest allowed value
   * @param maximum the largest allowed value
   * @param option the option's name, for the message
   * @return the value
   * @throws IllegalArgumentException {@code <option> must be between <minimum> and <maximum>, got
   *     <value>}
   */
  public static int between(int value, int minimum, int maximum, String option) {
    if (value < minimum || value > maximum) {
      throw new IllegalArgumentException(
          option + " must be between " + minimum + " and " + maximum + ", got " + value);
    }
    return value;
  }
}
