package io.github.dra4j.core.option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.DoublePredicate;
import java.util.function.Function;

/**
 * Checks a driver's settings given as text (environment variables, or flags that default to
 * them) and collects every problem as {@code NAME="value": what is wanted} (the value trimmed),
 * so that a process
 * with several malformed settings says so once, naming each, before it starts anything. A value
 * that is {@code null} or blank is unset (a manifest often writes {@code value: ""}); values are
 * trimmed. The kubelet plugin reads its own variables with the same checks and wording.
 *
 * <pre>{@code
 * SettingsCheck check = new SettingsCheck();
 * int devices = check.integer("NUM_DEVICES", options.numDevices, 0, 128).orElse(8);
 * boolean shared = check.bool("ALLOW_SHARING", options.allowSharing).orElse(false);
 * String driver = check.valid("DRIVER_NAME", options.driverName, NameRules::driverName)
 *     .orElse("gpu.example.com");
 * check.throwIfProblems();   // IllegalArgumentException: NUM_DEVICES="many": want ...; ...
 * }</pre>
 *
 * <p>Mutable: use one per reading, on one thread.
 */
public final class SettingsCheck {

  private final List<String> problems = new ArrayList<>();

  /** Starts a check with no problems. */
  public SettingsCheck() {}

  /**
   * A setting's text.
   *
   * @param variable the variable's name, for messages
   * @param value its value; {@code null} or blank for unset
   * @return the trimmed value, or empty when unset
   */
  public Optional<String> text(String variable, String value) {
    Objects.requireNonNull(variable, "variable");
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /**
   * A setting that must be given.
   *
   * @param variable the variable's name, for messages
   * @param value its value
   * @param what what the setting is, for the message when it is missing
   * @return the trimmed value, or empty when missing (then a problem)
   */
  public Optional<String> required(String variable, String value, String what) {
    Optional<String> text = text(variable, value);
    if (text.isEmpty()) {
      problems.add(variable + " is required: " + what);
    }
    return text;
  }

  /**
   * A setting that a rule accepts, such as {@code NameRules::driverName}.
   *
   * @param variable the variable's name, for messages
   * @param value its value
   * @param rule the problem with a value, or empty when it is valid
   * @return the trimmed value, or empty when unset or refused (then a problem)
   */
  public Optional<String> valid(String variable, String value,
      Function<String, Optional<String>> rule) {
    Objects.requireNonNull(rule, "rule");
    return text(variable, value).filter(text -> {
      Optional<String> problem = rule.apply(text);
      problem.ifPresent(p -> refuse(variable, text, p));
      return problem.isEmpty();
    });
  }

  /**
   * An absolute path.
   *
   * @param variable the variable's name, for messages
   * @param value its value
   * @return the normalized path, or empty when unset or malformed (then a problem)
   */
  public Optional<Path> absolutePath(String variable, String value) {
    return valid(variable, value, text -> text.startsWith("/") && text.indexOf('\0') < 0
        ? Optional.empty() : Optional.of("want an absolute path"))
        .map(text -> Path.of(text).normalize());
  }

  /**
   * A whole number in a range.
   *
   * @param variable the variable's name, for messages
   * @param value its value
   * @param minimum the smallest allowed
   * @param maximum the largest allowed
   * @return the number, or empty when unset or malformed (then a problem)
   */
  public OptionalInt integer(String variable, String value, int minimum, int maximum) {
    return integer(variable, value, minimum, maximum,
        "want a whole number from " + minimum + " to " + maximum);
  }

  /**
   * A whole number in a range, refused with a wording of the caller's.
   *
   * @param variable the variable's name, for messages
   * @param value its value
   * @param minimum the smallest allowed
   * @param maximum the largest allowed
   * @param want what is wanted, e.g. {@code "want a port from 0 to 65535, or -1 for none"}
   * @return the number, or empty when unset or malformed (then a problem)
   */
  public OptionalInt integer(String variable, String value, int minimum, int maximum,
      String want) {
    Optional<String> text = text(variable, value);
    if (text.isEmpty()) {
      return OptionalInt.empty();
    }
    try {
      int number = Integer.parseInt(text.get());
      if (number >= minimum && number <= maximum) {
        return OptionalInt.of(number);
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    refuse(variable, text.get(), want);
    return OptionalInt.empty();
  }

  /**
   * A TCP port, 0 (any free port) to 65535.
   *
   * @param variable the variable's name, for messages
   * @param value its value
   * @return the port, or empty when unset or malformed (then a problem)
   */
  public OptionalInt port(String variable, String value) {
    return integer(variable, value, 0, 65535, "want a port from 0 to 65535");
  }

  /**
   * A comma-separated list of whole numbers in a range; empty items are skipped.
   *
   * @param variable the variable's name, for messages
   * @param value its value
   * @param minimum the smallest allowed
   * @param maximum the largest allowed
   * @return the numbers in order, without the malformed ones (each a problem)
   */
  public List<Integer> integers(String variable, String value, int minimum, int maximum) {
    List<Integer> numbers = new ArrayList<>();
    text(variable, value).ifPresent(text -> {
      for (String item : text.split(",", -1)) {
        if (!item.isBlank()) {
          integer(variable, item, minimum, maximum).ifPresent(numbers::add);
        }
      }
    });
    return numbers;
  }

  /**
   * A decimal number that passes a test.
   *
   * @param variable the variable's name, for messages
   * @param value its value
   * @param valid the test, e.g. {@code n -> n > 0}; infinities and NaN are always refused
   * @param want what is wanted, e.g. {@code "want a number above 0"}
   * @return the number, or empty when unset or malformed (then a problem)
   */
  public OptionalDouble decimal(String variable, String value, DoublePredicate valid,
      String want) {
    Optional<String> text = text(variable, value);
    if (text.isEmpty()) {
      return OptionalDouble.empty();
    }
    try {
      double number = Double.parseDouble(text.get());
      if (Double.isFinite(number) && valid.test(number)) {
        return OptionalDouble.of(number);
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    refuse(variable, text.get(), want);
    return OptionalDouble.empty();
  }

  /**
   * {@code true} or {@code false}, in any case.
   *
   * @param variable the variable's name, for messages
   * @param value its value
   * @return the value, or empty when unset or malformed (then a problem)
   */
  public Optional<Boolean> bool(String variable, String value) {
    return text(variable, value).flatMap(text -> {
      String lower = text.toLowerCase(Locale.ROOT);
      if (lower.equals("true") || lower.equals("false")) {
        return Optional.of(lower.equals("true"));
      }
      refuse(variable, text, "want true or false");
      return Optional.empty();
    });
  }

  /**
   * One of an enum's constants, written in any case ({@code nvml} for {@code NVML}).
   *
   * @param <E> the enum
   * @param variable the variable's name, for messages
   * @param value its value
   * @param type the enum's class
   * @return the constant, or empty when unset or unknown (then a problem listing the choices)
   */
  public <E extends Enum<E>> Optional<E> oneOf(String variable, String value, Class<E> type) {
    return text(variable, value).flatMap(text -> {
      for (E constant : type.getEnumConstants()) {
        if (constant.name().equalsIgnoreCase(text)) {
          return Optional.of(constant);
        }
      }
      List<String> names = new ArrayList<>();
      for (E constant : type.getEnumConstants()) {
        names.add(constant.name().toLowerCase(Locale.ROOT));
      }
      refuse(variable, text, "want " + String.join(" or ", names));
      return Optional.empty();
    });
  }

  /**
   * Records a problem of the caller's own, in the same wording.
   *
   * @param variable the variable's name
   * @param value the value refused, quoted in the message as it was given
   * @param want what is wanted instead
   */
  public void refuse(String variable, String value, String want) {
    problems.add(variable + "=\"" + value + "\": " + want);
  }

  /**
   * The problems so far, in the order they were found.
   *
   * @return an unmodifiable copy
   */
  public List<String> problems() {
    return List.copyOf(problems);
  }

  /**
   * Ends the check.
   *
   * @throws IllegalArgumentException listing every problem, separated by {@code "; "}, if there
   *     is one
   */
  public void throwIfProblems() {
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
  }
}
