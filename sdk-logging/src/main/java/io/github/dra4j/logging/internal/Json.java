package io.github.dra4j.logging.internal;

import java.lang.reflect.Array;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes JSON strings and values into a line: both formats write a value the same way (text
 * quotes strings as JSON does), so a value reads alike in either. Stateless.
 */
public final class Json {

  /** How deep nested lists and maps are written before the rest is written as text. */
  private static final int MAX_DEPTH = 4;

  private static final Pattern JSON_NUMBER = Pattern
      .compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Json() {}

  /**
   * Appends a JSON string: quoted, with quotes, backslashes and control characters escaped (a
   * line feed in a message cannot start a new line).
   *
   * @param line where to append
   * @param text the string, {@code null} for JSON's null
   */
  public static void string(StringBuilder line, CharSequence text) {
    if (text == null) {
      line.append("null");
      return;
    }
    line.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> line.append("\\\"");
        case '\\' -> line.append("\\\\");
        case '\n' -> line.append("\\n");
        case '\r' -> line.append("\\r");
        case '\t' -> line.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
            line.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf])
                .append(HEX[c >> 4 & 0xf]).append(HEX[c & 0xf]);
          } else {
            line.append(c);
          }
        }
      }
    }
    line.append('"');
  }

  /**
   * Appends a value: numbers (finite ones) and booleans as such, collections and arrays as JSON
   * arrays, maps as objects, anything else as the string of its {@code toString()}.
   *
   * @param line where to append
   * @param value the value, may be null
   */
  public static void value(StringBuilder line, Object value) {
    value(line, value, 0);
  }

  private static void value(StringBuilder line, Object value, int depth) {
    if (value == null) {
      line.append("null");
    } else if (value instanceof Boolean) {
      line.append(value);
    } else if (value instanceof Number number) {
      number(line, number);
    } else if (depth >= MAX_DEPTH) {
      string(line, String.valueOf(value));
    } else if (value instanceof Iterable) {
      line.append('[');
      boolean first = true;
      for (Object element : (Iterable<?>) value) {
        if (!first) {
          line.append(',');
        }
        first = false;
        value(line, element, depth + 1);
      }
      line.append(']');
    } else if (value.getClass().isArray()) {
      line.append('[');
      for (int i = 0; i < Array.getLength(value); i++) {
        if (i > 0) {
          line.append(',');
        }
        value(line, Array.get(value, i), depth + 1);
      }
      line.append(']');
    } else if (value instanceof Map) {
      line.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        if (!first) {
          line.append(',');
        }
        first = false;
        string(line, String.valueOf(entry.getKey()));
        line.append(':');
        value(line, entry.getValue(), depth + 1);
      }
      line.append('}');
    } else {
      string(line, value.toString());
    }
  }

  private static void number(StringBuilder line, Number number) {
    if (number instanceof Integer || number instanceof Long || number instanceof Short
        || number instanceof Byte) {
      line.append(number.longValue());
      return;
    }
    if (number instanceof Double || number instanceof Float) {
      double d = number.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        string(line, number.toString()); // JSON has no NaN or Infinity
        return;
      }
    }
    String text = number.toString();
    // Number types of other libraries may print anything: write only what JSON reads as a number.
    if (JSON_NUMBER.matcher(text).matches()) {
      line.append(text);
    } else {
      string(line, text);
    }
  }
}
