package io.github.dra4j.core.name;

/**
 * Prints a string the way the API server prints a refused string value in its messages ({@code
 * Invalid value: "<value>": ...}): Go's {@code strconv.Quote}, which the server's {@code %q}
 * format uses. Stateless.
 */
public final class GoStrings {

  private GoStrings() {}

  /**
   * Quotes a string as Go's {@code strconv.Quote} does: double quotes, backslash escapes for
   * {@code \a \b \f \n \r \t \v \\ \"}, {@code \x..} for other control characters and DEL, a
   * backslash-u or backslash-U escape for other code points that are not printable; printable
   * characters (letters of any script included) stay as they are. A lone surrogate becomes
   * U+FFFD, as Go decodes it from JSON.
   *
   * @param text the string, not null
   * @return the quoted string
   */
  public static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length();) {
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
        default -> appendOther(out, cp);
      }
    }
    return out.append('"').toString();
  }

  private static void appendOther(StringBuilder out, int cp) {
    if (cp < 0x20 || cp == 0x7F) {
      out.append(String.format("\\x%02x", cp));
    } else if (Character.isSurrogate((char) cp) && cp < 0x10000) {
      out.append((char) 0xFFFD);
    } else if (isPrintable(cp)) {
      out.appendCodePoint(cp);
    } else if (cp < 0x10000) {
      out.append(String.format("\\u%04x", cp));
    } else {
      out.append(String.format("\\U%08x", cp));
    }
  }

  /**
   * Go's {@code strconv.IsPrint} (and {@code unicode.IsPrint}): letters, marks, numbers,
   * punctuation, symbols and the ASCII space.
   *
   * @param cp a code point
   * @return true if Go prints it as it is
   */
  public static boolean isPrintable(int cp) {
    if (cp == ' ') {
      return true;
    }
    return switch (Character.getType(cp)) {
      case Character.UNASSIGNED, Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE,
          Character.SURROGATE, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR ->
        false;
      default -> true;
    };
  }
}
