package io.github.dra4j.kubeletplugin.internal.logging;

/**
 * Text from clients (claim names, namespaces and UIDs from the kubelet, anything the API server
 * returns, a driver's message about them, the content of a file) made fit for a log line: every
 * character that could end the line or hide text (control characters, DEL, the line and
 * paragraph separators, directional and other format characters) is escaped, so a value can
 * neither forge a log line of its own nor disguise one, and a long value is shortened, naming its
 * length, so it cannot flood the log. Printable characters of any script stay as they are.
 * Values that passed the plugin's name checks come out unchanged. The one place the plugin does
 * this; stateless.
 *
 * <pre>{@code
 * LOG.warn("Driver failed to prepare claim {}: {}", ref, LogText.text(error));
 * "field \"name\" is " + LogText.quote(name)   // "evil\x0aline"
 * }</pre>
 */
public final class LogText {

  /** How many characters of a value {@link #quote(String)} keeps: a DNS subdomain fits. */
  public static final int VALUE_LIMIT = 256;

  /** How many characters of a message {@link #text(String)} keeps. */
  public static final int MESSAGE_LIMIT = 2048;

  private LogText() {}

  /**
   * A value in double quotes, escaped, at most {@value #VALUE_LIMIT} characters of it.
   *
   * @param value any string, or null
   * @return for example {@code "evil\x0aline"}, or {@code null}
   */
  public static String quote(String value) {
    return quote(value, VALUE_LIMIT);
  }

  /**
   * A value in double quotes, escaped, shortened to a limit: {@code "aaa...(254 chars)"}.
   *
   * @param value any string, or null
   * @param limit how many of its characters to keep
   * @return the quoted value, or {@code null}
   */
  public static String quote(String value, int limit) {
    if (value == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder(Math.min(value.length(), limit) + 16).append('"');
    append(out, value, limit, true);
    return out.append('"').toString();
  }

  /**
   * A message, escaped, at most {@value #MESSAGE_LIMIT} characters of it; no quotes added.
   *
   * @param message any text, or null
   * @return the text fit for one log line, or {@code null}
   */
  public static String text(String message) {
    return text(message, MESSAGE_LIMIT);
  }

  /**
   * A message, escaped, shortened to a limit; no quotes added.
   *
   * @param message any text, or null
   * @param limit how many of its characters to keep
   * @return the text fit for one log line, or {@code null}
   */
  public static String text(String message, int limit) {
    if (message == null) {
      return "null";
    }
    if (message.length() <= limit && isPlain(message)) {
      return message;
    }
    StringBuilder out = new StringBuilder(Math.min(message.length(), limit) + 16);
    append(out, message, limit, false);
    return out.toString();
  }

  /** True if nothing in the text needs escaping (the common case: no copy). */
  private static boolean isPlain(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c >= 0x7f) {
        return false;
      }
    }
    return true;
  }

  private static void append(StringBuilder out, String text, int limit, boolean quoted) {
    int end = Math.min(text.length(), Math.max(0, limit));
    if (end < text.length() && end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
      end--; // never split a character
    }
    for (int i = 0; i < end;) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (quoted && (cp == '"' || cp == '\\')) {
        out.append('\\').appendCodePoint(cp);
      } else if (cp < 0x20 || cp == 0x7f) {
        out.append(String.format("\\x%02x", cp));
      } else if (cp < 0x80 || isVisible(cp)) {
        out.appendCodePoint(cp);
      } else if (cp < 0x10000) {
        out.append(String.format("\\u%04x", cp));
      } else {
        out.append(String.format("\\U%08x", cp));
      }
    }
    if (end < text.length()) {
      out.append("...(").append(text.length()).append(" chars)");
    }
  }

  /** Letters, marks, numbers, punctuation and symbols; not controls, formats or separators. */
  private static boolean isVisible(int cp) {
    return switch (Character.getType(cp)) {
      case Character.UNASSIGNED, Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE,
          Character.SURROGATE, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR ->
        false;
      default -> true;
    };
  }
}
