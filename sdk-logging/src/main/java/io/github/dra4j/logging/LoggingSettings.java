package io.github.dra4j.logging;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The logging settings of a process, read from its environment.
 *
 * <p>{@value #LEVEL_VARIABLE}: {@code error}, {@code warn}, {@code info} (the default), {@code
 * debug}, {@code trace}, or a klog verbosity (see {@link LogLevel}). {@value #FORMAT_VARIABLE}:
 * {@code text} (the default) or {@code json}. An unset or empty variable means the default. A
 * value that names nothing does not stop the process: logging is set up before the driver reads
 * any of its own settings, and losing some lines is better than losing the node's devices. It
 * falls back to the default and leaves one line in {@link #problems()}, naming the variable and
 * the value, which the configuration logs as a warning in the chosen format.
 *
 * @param level the level of the root logger
 * @param format the line format
 * @param problems one line per setting that named nothing, empty when all were good
 */
public record LoggingSettings(LogLevel level, LogFormat format, List<String> problems) {

  /** The environment variable that sets the level. */
  public static final String LEVEL_VARIABLE = "LOG_LEVEL";

  /** The environment variable that sets the line format. */
  public static final String FORMAT_VARIABLE = "LOG_FORMAT";

  /**
   * The system property a program sets, before it logs anything, to change the level used when
   * {@value #LEVEL_VARIABLE} is unset (a demo that prints its own story may want {@code error}).
   */
  public static final String DEFAULT_LEVEL_PROPERTY = "dra4j.logging.defaultLevel";

  /**
   * Checks and copies the values.
   *
   * @param level the level
   * @param format the format
   * @param problems the problems found
   * @throws NullPointerException if any is null
   */
  public LoggingSettings {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(format, "format");
    problems = List.copyOf(problems);
  }

  /**
   * Reads the settings.
   *
   * @param environment the process environment, such as {@link System#getenv()}
   * @param defaultLevel the value of {@value #DEFAULT_LEVEL_PROPERTY}, or null when unset
   * @return the settings, with a problem line for each value that named nothing
   */
  public static LoggingSettings from(Map<String, String> environment, String defaultLevel) {
    List<String> problems = new ArrayList<>();
    LogLevel fallback = LogLevel.INFO;
    if (defaultLevel != null && !defaultLevel.isBlank()) {
      Optional<LogLevel> parsed = LogLevel.parse(defaultLevel);
      if (parsed.isPresent()) {
        fallback = parsed.get();
      } else {
        problems.add(levelProblem("system property " + DEFAULT_LEVEL_PROPERTY, defaultLevel,
            fallback));
      }
    }
    LogLevel level = fallback;
    String levelText = environment.get(LEVEL_VARIABLE);
    if (levelText != null && !levelText.isBlank()) {
      Optional<LogLevel> parsed = LogLevel.parse(levelText);
      if (parsed.isPresent()) {
        level = parsed.get();
      } else {
        problems.add(levelProblem(LEVEL_VARIABLE, levelText, fallback));
      }
    }
    LogFormat format = LogFormat.TEXT;
    String formatText = environment.get(FORMAT_VARIABLE);
    if (formatText != null && !formatText.isBlank()) {
      Optional<LogFormat> parsed = LogFormat.parse(formatText);
      if (parsed.isPresent()) {
        format = parsed.get();
      } else {
        problems.add(FORMAT_VARIABLE + "=" + quoted(formatText)
            + " is not a log format: want text or json; logging as text");
      }
    }
    return new LoggingSettings(level, format, problems);
  }

  private static String levelProblem(String setting, String value, LogLevel fallback) {
    return setting + "=" + quoted(value) + " is not a log level: want error, warn, info, debug,"
        + " trace or a klog verbosity (0-3 info, 4 debug, 5 or more trace); logging at "
        + fallback.settingName();
  }

  /** The value in double quotes, with quotes, backslashes and control characters escaped. */
  private static String quoted(String value) {
    StringBuilder text = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        text.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f) {
        text.append(String.format("\\u%04x", (int) c));
      } else {
        text.append(c);
      }
    }
    return text.append('"').toString();
  }
}
