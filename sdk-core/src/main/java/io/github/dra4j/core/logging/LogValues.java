package io.github.dra4j.core.logging;

/**
 * Makes a value from a client safe to log: one line, bounded in length. A newline in a value
 * could otherwise forge a log line of its own, and a value of megabytes would make a line of
 * megabytes. Control characters, quotes and backslashes are escaped as in Java and JSON ({@code
 * \n}, {@code \"}, {@code \\}, and other control characters as a backslash, {@code u} and four
 * hexadecimal digits); a value longer than the limit keeps its start and
 * says how much was left out. Stateless.
 */
public final class LogValues {

  /** The default number of characters kept of one value. */
  public static final int DEFAULT_MAX_CHARS = 200;

  private LogValues() {}

  /**
   * Escapes and truncates a value, in double quotes.
   *
   * @param value the value; null gives {@code (none)}
   * @param maxChars the most characters of the value kept
   * @return such as {@code "a\nb"} or {@code "aaaa..." (3145728 characters, 3145528 not shown)}
   */
  public static String quote(String value, int maxChars) {
    if (value == null) {
      return "(none)";
    }
    return "\"" + escape(value, maxChars) + "\"" + omitted(value, maxChars);
  }

  /**
   * Escapes and truncates a value, in double quotes, keeping {@value #DEFAULT_MAX_CHARS}
   * characters.
   *
   * @param value the value; null gives {@code (none)}
   * @return the quoted value
   */
  public static String quote(String value) {
    return quote(value, DEFAULT_MAX_CHARS);
  }

  /**
   * Escapes and truncates text that is not one value, such as a message that quotes values:
   * like {@link #quote(String, int)} without the quotes.
   *
   * @param text the text; null gives {@code (none)}
   * @param maxChars the most characters kept
   * @return the escaped text, with a note of what was left out
   */
  public static String line(String text, int maxChars) {
    if (text == null) {
      return "(none)";
    }
    return escape(text, maxChars) + omitted(text, maxChars);
  }

  private static String omitted(String value, int maxChars) {
    return value.length() <= maxChars ? ""
        : "... (" + value.length() + " characters, " + (value.length() - maxChars)
            + " not shown)";
  }

  private static String escape(String value, int maxChars) {
    int end = Math.min(value.length(), Math.max(0, maxChars));
    StringBuilder out = new StringBuilder(end + 8);
    for (int i = 0; i < end; i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028'
              || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
