package io.github.dra4j.core.name;

import java.util.List;
import java.util.Objects;

/**
 * One thing the API server finds wrong with a name, before it is placed at a field: {@code
 * Required value}, {@code Too long: may not be more than 63 bytes} or {@code Invalid value:
 * "GPU-0": a lowercase RFC 1123 label must consist of ...}. {@link NameRules} gives these; the
 * SDK prints them as they are, the API rules put them at a field path. Immutable.
 *
 * @param type what kind of problem
 * @param value the refused value as the server shows it (for {@link Type#INVALID}), else empty
 * @param detail the server's explanation ({@code may not be more than 63 bytes} for too long),
 *     empty for a required value
 */
public record NameProblem(Type type, String value, String detail) {

  /** What kind of problem. */
  public enum Type {
    /** The name is missing. */
    REQUIRED,
    /** The name is longer than allowed; the message does not repeat it. */
    TOO_LONG,
    /** The name is malformed. */
    INVALID
  }

  /**
   * Checks the parts.
   *
   * @param type the kind of problem, not null
   * @param value the value, not null
   * @param detail the explanation, not null
   */
  public NameProblem {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(detail, "detail");
  }

  /**
   * A missing name.
   *
   * @return {@code Required value}
   */
  public static NameProblem required() {
    return new NameProblem(Type.REQUIRED, "", "");
  }

  /**
   * A name over its length limit.
   *
   * @param maxBytes the limit in UTF-8 bytes
   * @return {@code Too long: may not be more than <max> bytes}
   */
  public static NameProblem tooLong(int maxBytes) {
    return new NameProblem(Type.TOO_LONG, "",
        "may not be more than " + maxBytes + (maxBytes == 1 ? " byte" : " bytes"));
  }

  /**
   * A malformed name.
   *
   * @param value the refused value (a whole name or the part the rule checked)
   * @param detail why
   * @return {@code Invalid value: "<value>": <detail>}
   */
  public static NameProblem invalid(String value, String detail) {
    return new NameProblem(Type.INVALID, value, detail);
  }

  /**
   * Words the problem as the server does, without a field path.
   *
   * @return e.g. {@code Invalid value: "GPU-0": a lowercase RFC 1123 label must ...}
   */
  @Override
  public String toString() {
    return switch (type) {
      case REQUIRED -> "Required value";
      case TOO_LONG -> "Too long: " + detail;
      case INVALID -> "Invalid value: " + GoStrings.quote(value) + ": " + detail;
    };
  }

  /**
   * Joins problems as {@link NameRules} reports them: separated by {@code ", "}.
   *
   * @param problems the problems
   * @return the joined words, or empty text for none
   */
  public static String join(List<NameProblem> problems) {
    StringBuilder out = new StringBuilder();
    for (NameProblem problem : problems) {
      out.append(out.length() == 0 ? "" : ", ").append(problem);
    }
    return out.toString();
  }
}
