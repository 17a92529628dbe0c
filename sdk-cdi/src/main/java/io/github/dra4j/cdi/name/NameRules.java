package io.github.dra4j.cdi.name;

import java.util.Optional;

/**
 * The character and length rules for CDI vendor, class and device names.
 *
 * <p>The {@code ...Problem} methods follow the reference CDI library used by container runtimes:
 * vendor and class start with an ASCII letter, end with a letter or digit and contain only
 * letters, digits, {@code _}, {@code -} and {@code .}; device names may also contain {@code :} and
 * may start with a digit. One-character vendors and classes are refused because released library
 * versions (up to v1.1.0) crash on them.
 *
 * <p>The {@code strict...Problem} methods add the specification's rules that the library does not
 * check and that this SDK applies to everything it writes: the vendor is a lower-case DNS
 * subdomain of at most 253 characters, the class is at most 63 characters.
 *
 * <p>Every method returns the reason a name is refused, or empty when it is acceptable.
 */
public final class NameRules {
  /** Longest vendor the CDI specification allows (a DNS subdomain). */
  public static final int MAX_VENDOR_LENGTH = 253;

  /** Longest class the CDI specification allows (a name segment). */
  public static final int MAX_CLASS_LENGTH = 63;

  private NameRules() {}

  /**
   * Checks a vendor with the library's rules.
   *
   * @param vendor the vendor, e.g. {@code example.com}
   * @return the reason it is refused, or empty
   */
  public static Optional<String> vendorProblem(String vendor) {
    return segmentProblem("vendor", vendor);
  }

  /**
   * Checks a class with the library's rules.
   *
   * @param className the class, e.g. {@code gpu}
   * @return the reason it is refused, or empty
   */
  public static Optional<String> classProblem(String className) {
    return segmentProblem("class", className);
  }

  /**
   * Checks a vendor with the library's rules plus the specification's: a lower-case RFC 1123 DNS
   * subdomain of 2 to 253 characters that starts with a letter.
   *
   * @param vendor the vendor
   * @return the reason it is refused, or empty
   */
  public static Optional<String> strictVendorProblem(String vendor) {
    Optional<String> problem = vendorProblem(vendor);
    if (problem.isPresent()) {
      return problem;
    }
    if (vendor.length() > MAX_VENDOR_LENGTH) {
      return Optional.of(
          "vendor is " + vendor.length() + " characters long, at most " + MAX_VENDOR_LENGTH
              + " allowed");
    }
    for (String label : vendor.split("\\.", -1)) {
      if (!isDnsLabel(label)) {
        return Optional.of(
            "vendor must be a lower-case DNS subdomain; label \"" + label + "\" is not a DNS"
                + " label ([a-z0-9]([-a-z0-9]*[a-z0-9])?)");
      }
    }
    return Optional.empty();
  }

  /**
   * Checks a class with the library's rules plus the specification's length limit of 63.
   *
   * @param className the class
   * @return the reason it is refused, or empty
   */
  public static Optional<String> strictClassProblem(String className) {
    Optional<String> problem = classProblem(className);
    if (problem.isPresent()) {
      return problem;
    }
    if (className.length() > MAX_CLASS_LENGTH) {
      return Optional.of(
          "class is " + className.length() + " characters long, at most " + MAX_CLASS_LENGTH
              + " allowed");
    }
    return Optional.empty();
  }

  /**
   * Checks a device name with the library's rules. A leading digit is accepted here; it needs
   * spec version 0.5.0, which the minimum-version rule accounts for.
   *
   * @param name the device name (the part after {@code =})
   * @return the reason it is refused, or empty
   */
  public static Optional<String> deviceNameProblem(String name) {
    if (name == null || name.isEmpty()) {
      return Optional.of("invalid (empty) device name");
    }
    char first = name.charAt(0);
    if (!isLetter(first) && !isDigit(first)) {
      return Optional.of("invalid name \"" + name + "\", should start with a letter or digit");
    }
    if (name.length() == 1) {
      return Optional.empty();
    }
    for (int i = 1; i < name.length() - 1; i++) {
      char c = name.charAt(i);
      if (!isAlphaNumeric(c) && c != '_' && c != '-' && c != '.' && c != ':') {
        return Optional.of("invalid character '" + c + "' in device name \"" + name + "\"");
      }
    }
    if (!isAlphaNumeric(name.charAt(name.length() - 1))) {
      return Optional.of("invalid name \"" + name + "\", should end with a letter or digit");
    }
    return Optional.empty();
  }

  private static Optional<String> segmentProblem(String what, String value) {
    if (value == null || value.isEmpty()) {
      return Optional.of("invalid " + what + ". empty name");
    }
    if (!isLetter(value.charAt(0))) {
      return Optional.of("invalid " + what + " \"" + value + "\", should start with a letter");
    }
    if (value.length() < 2) {
      return Optional.of(
          "invalid " + what + " \"" + value + "\", must be at least 2 characters (released CDI"
              + " libraries crash on 1-character names)");
    }
    for (int i = 1; i < value.length() - 1; i++) {
      char c = value.charAt(i);
      if (!isAlphaNumeric(c) && c != '_' && c != '-' && c != '.') {
        return Optional.of("invalid character '" + c + "' in " + what + " name \"" + value + "\"");
      }
    }
    if (!isAlphaNumeric(value.charAt(value.length() - 1))) {
      return Optional.of(
          "invalid " + what + " \"" + value + "\", should end with a letter or digit");
    }
    return Optional.empty();
  }

  private static boolean isDnsLabel(String label) {
    if (label.isEmpty() || label.length() > 63) {
      return false;
    }
    for (int i = 0; i < label.length(); i++) {
      char c = label.charAt(i);
      boolean lowerAlnum = (c >= 'a' && c <= 'z') || isDigit(c);
      boolean inner = i > 0 && i < label.length() - 1 && c == '-';
      if (!lowerAlnum && !inner) {
        return false;
      }
    }
    return true;
  }

  static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isAlphaNumeric(char c) {
    return isLetter(c) || isDigit(c);
  }
}
