package io.github.dra4j.kubeletplugin.internal.node;

import io.github.dra4j.core.name.NameRules;

/**
 * Character-loop checks of the names every call carries, for the hot path: each says whether a
 * value is certainly valid by the same rule as {@link NameRules} (or {@link DeviceCheck}'s CDI ID
 * pattern) without a regular expression. A value they reject is checked again by the full rule,
 * which also words the error, so they decide nothing alone. Stateless.
 */
final class FastNames {

  private FastNames() {}

  /**
   * {@link NameRules#uid}: 1 to {@value NameRules#UID_MAX} letters, digits or {@code -},
   * starting and ending with a letter or digit.
   */
  static boolean isUid(String value) {
    int length = value.length();
    if (length == 0 || length > NameRules.UID_MAX) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      boolean alphanumeric = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
      if (!alphanumeric && (c != '-' || i == 0 || i == length - 1)) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@link NameRules#dnsLabel}: 1 to {@value NameRules#DNS_LABEL_MAX} lower-case letters, digits
   * or {@code -}, starting and ending with a letter or digit.
   */
  static boolean isDnsLabel(String value) {
    return value.length() <= NameRules.DNS_LABEL_MAX && isLabel(value, 0, value.length());
  }

  /**
   * {@link NameRules#dnsSubdomain}: at most {@code maxLength} characters, DNS labels (of any
   * length) separated by dots.
   */
  static boolean isDnsSubdomain(String value, int maxLength) {
    int length = value.length();
    if (length == 0 || length > maxLength) {
      return false;
    }
    int start = 0;
    for (int dot = value.indexOf('.'); dot >= 0; dot = value.indexOf('.', start)) {
      if (!isLabel(value, start, dot)) {
        return false;
      }
      start = dot + 1;
    }
    return isLabel(value, start, length);
  }

  /** A request reference as {@code RequestReference.parse} accepts it: a label or label/label. */
  static boolean isRequestReference(String value) {
    int slash = value.indexOf('/');
    if (slash < 0) {
      return isDnsLabel(value);
    }
    return slash <= NameRules.DNS_LABEL_MAX && isLabel(value, 0, slash)
        && value.length() - slash - 1 <= NameRules.DNS_LABEL_MAX
        && isLabel(value, slash + 1, value.length());
  }

  /**
   * A fully qualified CDI device ID, {@code vendor/class=name}: vendor and class without {@code
   * /}, {@code =} or white space, the name without {@code =} or white space, none empty.
   */
  static boolean isCdiDeviceId(String value) {
    int slash = -1;
    int equals = -1;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == ' ' || c >= '\t' && c <= '\r') {
        return false; // \s: space, \t, \n, \u000B, \f, \r
      }
      if (c == '=') {
        if (equals >= 0 || slash < 0) {
          return false;
        }
        equals = i;
      } else if (c == '/' && equals < 0) {
        if (slash >= 0) {
          return false;
        }
        slash = i;
      }
    }
    return slash > 0 && equals > slash + 1 && equals < value.length() - 1;
  }

  /** Whether {@code value[start, end)} is a lower-case label of any non-zero length. */
  private static boolean isLabel(String value, int start, int end) {
    if (start >= end) {
      return false;
    }
    for (int i = start; i < end; i++) {
      char c = value.charAt(i);
      boolean alphanumeric = c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
      if (!alphanumeric && (c != '-' || i == start || i == end - 1)) {
        return false;
      }
    }
    return true;
  }
}
