package io.github.dra4j.cel;

import dev.cel.common.CelErrorCode;
import dev.cel.runtime.CelEvaluationException;
import io.github.dra4j.core.quantity.QuantityValue;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns cel-java evaluation errors into the texts Kubernetes (cel-go) reports, so that messages
 * and tests read the same as in a cluster. Stateless.
 */
final class RuntimeErrors {

  /** The text Kubernetes reports when an evaluation exceeds its cost budget. */
  static final String COST_LIMIT_EXCEEDED = "operation cancelled: actual cost limit exceeded";

  private static final Pattern POSITION_PREFIX = Pattern
      .compile("^evaluation error(?: at [^:]*:\\d+)?: ");
  private static final Pattern MISSING_KEY = Pattern
      .compile("key '(.*)' is not present in map\\.?");
  private static final Pattern NO_OVERLOAD = Pattern
      .compile("No matching overload for function '([^']*)'.*", Pattern.DOTALL);
  private static final Pattern SUBSTRING_RANGE = Pattern
      .compile("substring failure: Range \\[(-?\\d+), (-?\\d+)\\) out of bounds");
  private static final Pattern NOT_ITERABLE = Pattern
      .compile("expected a list or a map for iteration range but got '([^']*)'");
  private static final Map<String, String> GO_TYPES = Map.of(
      "Long", "types.Int",
      "UnsignedLong", "types.Uint",
      "Double", "types.Double",
      "String", "types.String",
      "Boolean", "types.Bool",
      "SemverValue", "cel.Semver",
      "QuantityValue", "cel.Quantity");

  private RuntimeErrors() {}

  /** Returns the Kubernetes-style text for an evaluation error. */
  static String describe(CelEvaluationException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    message = POSITION_PREFIX.matcher(message).replaceFirst("");
    CelErrorCode code = e.getErrorCode();
    if (code == CelErrorCode.ITERATION_BUDGET_EXCEEDED) {
      return COST_LIMIT_EXCEEDED;
    }
    if (code == CelErrorCode.NUMERIC_OVERFLOW || message.endsWith("long overflow")) {
      return "integer overflow";
    }
    if (code == CelErrorCode.DIVIDE_BY_ZERO) {
      return message.toLowerCase(java.util.Locale.ROOT).contains("modulo")
          ? "modulus by zero"
          : "division by zero";
    }
    Matcher m = MISSING_KEY.matcher(message);
    if (m.matches()) {
      return "no such key: " + m.group(1);
    }
    if (code == CelErrorCode.ATTRIBUTE_NOT_FOUND && !message.contains(" ")) {
      return "no such key: " + message;
    }
    m = SUBSTRING_RANGE.matcher(message);
    if (m.matches()) {
      long begin = Long.parseLong(m.group(1));
      long end = Long.parseLong(m.group(2));
      return "index out of range: " + (begin < 0 || begin > end ? begin : end);
    }
    m = NO_OVERLOAD.matcher(message);
    if (m.matches()) {
      return "no such overload: " + m.group(1);
    }
    m = NOT_ITERABLE.matcher(message);
    if (m.matches()) {
      return "got '" + GO_TYPES.getOrDefault(m.group(1), m.group(1)) + "', expected iterable type";
    }
    return message;
  }
}
