package io.github.dra4j.core.name;

/**
 * The character-level checks behind {@link NameFormats}, written as loops that allocate nothing:
 * the regular expressions of apimachinery, matched over a range of a string. Stateless.
 */
final class NameChars {

  private NameChars() {}

  /** Whether {@code value[start, end)} is a lower-case RFC 1123 label of any non-zero length. */
  static boolean isLabel(String value, int start, int end) {
    if (start >= end) {
      return false;
    }
    for (int i = start; i < end; i++) {
      char c = value.charAt(i);
      boolean alphanumeric = (c >= 'a' && c <= 'z') || isDigit(c);
      if (!alphanumeric && (c != '-' || i == start || i == end - 1)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code value[start, end)} is labels joined by dots (any length). */
  static boolean isSubdomain(String value, int start, int end) {
    int from = start;
    for (int i = start; i < end; i++) {
      if (value.charAt(i) == '.') {
        if (!isLabel(value, from, i)) {
          return false;
        }
        from = i + 1;
      }
    }
    return isLabel(value, from, end);
  }

  /** {@code ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]} over {@code value[start, end)}. */
  static boolean isLabelKeyName(String value, int start, int end) {
    if (start >= end) {
      return false;
    }
    for (int i = start; i < end; i++) {
      char c = value.charAt(i);
      boolean alphanumeric = isAsciiLetter(c) || isDigit(c);
      if (!alphanumeric && (i == start || i == end - 1 || (c != '-' && c != '_' && c != '.'))) {
        return false;
      }
    }
    return true;
  }

  static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
