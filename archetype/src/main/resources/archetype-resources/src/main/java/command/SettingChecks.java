package ${package}.command;

import io.github.dra4j.core.name.NameRules;
import java.util.List;
import java.util.Optional;

/**
 * Checks of settings taken as text, so that every malformed one is reported with its variable and
 * value ({@code DEVICE_COUNT="many": want a whole number from 0 to 64}) before anything starts.
 */
final class SettingChecks {

  private SettingChecks() {}

  static boolean blank(String value) {
    return value == null || value.isBlank();
  }

  /** The driver name, or the default; a malformed one is a problem. */
  static String driverName(String value, String fallback, List<String> problems) {
    String name = blank(value) ? fallback : value.trim();
    Optional<String> problem = NameRules.driverName(name);
    problem.ifPresent(p -> problems.add("DRIVER_NAME=\"" + name + "\": " + p));
    return name;
  }

  /** A whole number in a range, or the default when unset. */
  static int number(String variable, String value, int fallback, int min, int max,
      List<String> problems) {
    if (blank(value)) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.trim());
      if (parsed >= min && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    problems.add(variable + "=\"" + value + "\": want a whole number from " + min + " to " + max);
    return fallback;
  }

  /** A setting that must be given. */
  static String required(String variable, String flag, String value, String what,
      List<String> problems) {
    if (blank(value)) {
      problems.add(variable + " (" + flag + ") is required: " + what);
      return null;
    }
    return value.trim();
  }
}
