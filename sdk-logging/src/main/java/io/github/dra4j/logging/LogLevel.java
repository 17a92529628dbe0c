package io.github.dra4j.logging;

import java.util.Locale;
import java.util.Optional;

/**
 * The levels {@value LoggingSettings#LEVEL_VARIABLE} chooses from, with the verbosity ({@code v})
 * each writes in Kubernetes' JSON format. A klog verbosity is accepted as well, as the kubelet's
 * {@code -v}: 0 to 3 are {@link #INFO}, 4 is {@link #DEBUG}, 5 and more are {@link #TRACE}.
 */
public enum LogLevel {
  /** Errors only. */
  ERROR,
  /** Warnings and errors. */
  WARN,
  /** The default: what an operator reads (one line per prepared claim, start, stop). */
  INFO,
  /** Details for a developer; {@code v} 4, klog's debug verbosity. */
  DEBUG,
  /** Everything; {@code v} 5, klog's trace verbosity. */
  TRACE;

  /** The verbosity from which on klog numbers mean {@link #DEBUG}. */
  static final int DEBUG_VERBOSITY = 4;

  /** The verbosity from which on klog numbers mean {@link #TRACE}. */
  static final int TRACE_VERBOSITY = 5;

  /**
   * The level a setting names: a name in any case ({@code error}, {@code warn} or {@code
   * warning}, {@code info}, {@code debug}, {@code trace}) or a klog verbosity (a whole number
   * from 0).
   *
   * @param text the setting's value, trimmed
   * @return the level, or empty if the text names none
   */
  public static Optional<LogLevel> parse(String text) {
    String value = text.trim().toLowerCase(Locale.ROOT);
    return switch (value) {
      case "error" -> Optional.of(ERROR);
      case "warn", "warning" -> Optional.of(WARN);
      case "info" -> Optional.of(INFO);
      case "debug" -> Optional.of(DEBUG);
      case "trace" -> Optional.of(TRACE);
      default -> verbosity(value);
    };
  }

  private static Optional<LogLevel> verbosity(String value) {
    if (value.isEmpty() || value.length() > 9 || !value.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    int v = Integer.parseInt(value);
    return Optional.of(v >= TRACE_VERBOSITY ? TRACE : v >= DEBUG_VERBOSITY ? DEBUG : INFO);
  }

  /**
   * The lower-case name, as the setting spells it.
   *
   * @return {@code error}, {@code warn}, {@code info}, {@code debug} or {@code trace}
   */
  public String settingName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
