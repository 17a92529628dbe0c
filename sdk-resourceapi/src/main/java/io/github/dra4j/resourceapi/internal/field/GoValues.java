package io.github.dra4j.resourceapi.internal.field;

import java.util.Collection;
import java.util.Map;

/**
 * Prints a refused value the way the API server's messages show it, which is how Go's {@code fmt}
 * prints the value's type: strings quoted with Go's escapes ((a quote becomes a backslash and a quote)), integers, floats
 * and booleans bare, a missing value as {@code null}. A {@link Raw} value is printed as given;
 * validators use it where the server prints a structure with Go syntax. Stateless.
 */
public final class GoValues {

  /**
   * A value already printed; shown as it is.
   *
   * @param text the printed value
   */
  public record Raw(String text) {}

  private GoValues() {}

  /**
   * Prints a value.
   *
   * @param value a String, Number, Boolean, {@link Raw}, a collection of strings, or null
   * @return the printed value
   */
  public static String print(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Raw raw) {
      return raw.text();
    }
    if (value instanceof String text) {
      return quote(text);
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof Collection<?> items) {
      return stringSlice(items);
    }
    if (value instanceof Map<?, ?> map) {
      return map.toString();
    }
    return value.toString();
  }

  /**
   * Prints a list of strings as Go's {@code %#v} prints a {@code []string}: {@code
   * []string{"a", "b"}}, or {@code []string(nil)} for an empty list.
   *
   * @param items the items, printed with {@link #print}
   * @return the printed list
   */
  public static String stringSlice(Collection<?> items) {
    if (items.isEmpty()) {
      return "[]string(nil)";
    }
    StringBuilder out = new StringBuilder("[]string{");
    boolean first = true;
    for (Object item : items) {
      if (!first) {
        out.append(", ");
      }
      first = false;
      out.append(print(item));
    }
    return out.append('}').toString();
  }

  /**
   * Quotes a string as Go's {@code strconv.Quote} does: double quotes, backslash escapes for
   * {@code \a \b \f \n \r \t \v \\ \"}, {@code \x..} for other control bytes
   * characters, a backslash-u or backslash-U escape for non-printable code points; printable
   * characters (letters of any script included) stay as they are.
   *
   * @param text the string
   * @return the quoted string
   */
  public static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      switch (cp) {
        case 0x07 -> out.append("\\a");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case 0x0B -> out.append("\\v");
        case '\\' -> out.append("\\\\");
        case '"' -> out.append("\\\"");
        default -> {
          if (cp < 0x20 || cp == 0x7F) {
            out.append(String.format("\\x%02x", cp));
          } else if (Character.isSurrogate((char) cp)) {
            out.append((char) 0xFFFD); // Go decodes a lone surrogate from JSON as U+FFFD
          } else if (isPrintable(cp)) {
            out.appendCodePoint(cp);
          } else if (cp < 0x10000) {
            out.append(String.format("\\u%04x", cp));
          } else {
            out.append(String.format("\\U%08x", cp));
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and U+0020. */
  private static boolean isPrintable(int cp) {
    if (cp == ' ') {
      return true;
    }
    int type = Character.getType(cp);
    return switch (type) {
      case Character.UNASSIGNED, Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE,
          Character.SURROGATE, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR -> false;
      default -> true;
    };
  }
}
