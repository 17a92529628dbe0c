package io.github.dra4j.cel;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A semantic version (semver 2.0.0), the value behind CEL's {@code kubernetes.Semver} type and
 * behind {@code version} device attributes.
 *
 * <p>Parsing is strict like Kubernetes' (blang/semver): exactly {@code
 * MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]}, no leading {@code v}, no leading zeros, with the same
 * error texts. {@link #parseNormalized} implements the lenient form of {@code semver(s, true)}.
 * Ordering is semver precedence; build metadata is ignored for ordering <em>and</em> equality, as
 * in Kubernetes.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
final class SemverValue implements Comparable<SemverValue> {

  private static final String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-";

  private final long major;
  private final long minor;
  private final long patch;
  private final List<PreRelease> preRelease;
  private final String text;

  private SemverValue(long major, long minor, long patch, List<PreRelease> pre, String text) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.preRelease = List.copyOf(pre);
    this.text = text;
  }

  /**
   * Parses a version strictly.
   *
   * @param text the version, e.g. {@code 12.4.0-rc.1+build.7}
   * @return the version
   * @throws IllegalArgumentException with the Kubernetes error text, e.g. {@code No
   *     Major.Minor.Patch elements found} or {@code Invalid character(s) found in major number
   *     "v1"}
   */
  public static SemverValue parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.isEmpty()) {
      throw new IllegalArgumentException("Version string empty");
    }
    String[] parts = text.split("\\.", 3);
    if (parts.length != 3) {
      throw new IllegalArgumentException("No Major.Minor.Patch elements found");
    }
    long major = number(parts[0], "major number", "Major number");
    long minor = number(parts[1], "minor number", "Minor number");
    String patchText = parts[2];
    String build = null;
    int plus = patchText.indexOf('+');
    if (plus >= 0) {
      build = patchText.substring(plus + 1);
      patchText = patchText.substring(0, plus);
    }
    String pre = null;
    int dash = patchText.indexOf('-');
    if (dash >= 0) {
      pre = patchText.substring(dash + 1);
      patchText = patchText.substring(0, dash);
    }
    long patch = number(patchText, "patch number", "Patch number");
    List<PreRelease> preRelease = new ArrayList<>();
    if (pre != null) {
      for (String identifier : pre.split("\\.", -1)) {
        preRelease.add(PreRelease.parse(identifier));
      }
    }
    if (build != null) {
      for (String identifier : build.split("\\.", -1)) {
        if (identifier.isEmpty()) {
          throw new IllegalArgumentException("Build meta data is empty");
        }
        if (!containsOnly(identifier, ALPHANUMERIC)) {
          throw new IllegalArgumentException(
              "Invalid character(s) found in build meta data " + quote(identifier));
        }
      }
    }
    return new SemverValue(major, minor, patch, preRelease, text);
  }

  /**
   * Parses a version after normalizing it like {@code semver(s, true)}: one leading {@code v} is
   * dropped, leading zeros of the first three parts are removed and a missing minor or patch is
   * padded with {@code 0}. A short form with a prerelease or build part is refused.
   *
   * @param text the lenient version, e.g. {@code v12.4}
   * @return the version
   * @throws IllegalArgumentException when the normalized text is not a valid version
   */
  public static SemverValue parseNormalized(String text) {
    Objects.requireNonNull(text, "text");
    String s = text.startsWith("v") ? text.substring(1) : text;
    String[] parts = s.split("\\.", 3);
    if (parts.length < 3 && (s.indexOf('-') >= 0 || s.indexOf('+') >= 0)) {
      throw new IllegalArgumentException(
          "Invalid version " + quote(text)
              + ": a prerelease or build part needs Major.Minor.Patch");
    }
    StringBuilder normalized = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      if (i > 0) {
        normalized.append('.');
      }
      normalized.append(i < parts.length ? stripLeadingZeros(parts[i]) : "0");
    }
    return parse(normalized.toString());
  }

  /**
   * Returns true when {@link #parse} accepts the text.
   *
   * @param text the candidate
   * @param normalize whether to use {@link #parseNormalized} instead
   * @return whether the text is a version
   */
  public static boolean isValid(String text, boolean normalize) {
    try {
      if (normalize) {
        parseNormalized(text);
      } else {
        parse(text);
      }
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String stripLeadingZeros(String part) {
    int i = 0;
    while (i + 1 < part.length() && part.charAt(i) == '0'
        && Character.isDigit(part.charAt(i + 1))) {
      i++;
    }
    return part.substring(i);
  }

  private static long number(String digits, String what, String capitalized) {
    if (!containsOnly(digits, "0123456789")) {
      throw new IllegalArgumentException(
          "Invalid character(s) found in " + what + " " + quote(digits));
    }
    if (digits.length() > 1 && digits.charAt(0) == '0') {
      throw new IllegalArgumentException(
          capitalized + " must not contain leading zeroes " + quote(digits));
    }
    return parseUnsigned(digits);
  }

  private static long parseUnsigned(String digits) {
    if (digits.isEmpty()) {
      throw new IllegalArgumentException("strconv.ParseUint: parsing \"\": invalid syntax");
    }
    try {
      long value = Long.parseLong(digits);
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "strconv.ParseUint: parsing " + quote(digits) + ": value out of range", e);
    }
  }

  private static boolean containsOnly(String s, String allowed) {
    for (int i = 0; i < s.length(); i++) {
      if (allowed.indexOf(s.charAt(i)) < 0) {
        return false;
      }
    }
    return true;
  }

  private static String quote(String s) {
    return '"' + s + '"';
  }

  /**
   * Returns the major version.
   *
   * @return the {@code MAJOR} number, 0 to {@link Long#MAX_VALUE}
   */
  public long major() {
    return major;
  }

  /**
   * Returns the minor version.
   *
   * @return the {@code MINOR} number, 0 to {@link Long#MAX_VALUE}
   */
  public long minor() {
    return minor;
  }

  /**
   * Returns the patch version.
   *
   * @return the {@code PATCH} number, 0 to {@link Long#MAX_VALUE}
   */
  public long patch() {
    return patch;
  }

  @Override
  public int compareTo(SemverValue o) {
    int c = Long.compare(major, o.major);
    if (c == 0) {
      c = Long.compare(minor, o.minor);
    }
    if (c == 0) {
      c = Long.compare(patch, o.patch);
    }
    if (c != 0) {
      return Integer.signum(c);
    }
    if (preRelease.isEmpty() || o.preRelease.isEmpty()) {
      return Boolean.compare(preRelease.isEmpty(), o.preRelease.isEmpty());
    }
    int common = Math.min(preRelease.size(), o.preRelease.size());
    for (int i = 0; i < common; i++) {
      int p = preRelease.get(i).compareTo(o.preRelease.get(i));
      if (p != 0) {
        return p;
      }
    }
    return Integer.signum(Integer.compare(preRelease.size(), o.preRelease.size()));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SemverValue semverValue && compareTo(semverValue) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(major, minor, patch, preRelease);
  }

  /** Returns the version as it was written. */
  @Override
  public String toString() {
    return text;
  }

  /** One dot-separated prerelease identifier: numeric or alphanumeric. */
  private static final class PreRelease implements Comparable<PreRelease> {
    private final String text;
    private final long number;
    private final boolean numeric;

    private PreRelease(String text, long number, boolean numeric) {
      this.text = text;
      this.number = number;
      this.numeric = numeric;
    }

    static PreRelease parse(String s) {
      if (s.isEmpty()) {
        throw new IllegalArgumentException("Prerelease is empty");
      }
      if (containsOnly(s, "0123456789")) {
        if (s.length() > 1 && s.charAt(0) == '0') {
          throw new IllegalArgumentException(
              "Numeric PreRelease version must not contain leading zeroes " + quote(s));
        }
        return new PreRelease(s, parseUnsigned(s), true);
      }
      if (containsOnly(s, ALPHANUMERIC)) {
        return new PreRelease(s, 0, false);
      }
      throw new IllegalArgumentException("Invalid character(s) found in prerelease " + quote(s));
    }

    @Override
    public int compareTo(PreRelease o) {
      if (numeric && o.numeric) {
        return Long.compare(number, o.number);
      }
      if (numeric != o.numeric) {
        return numeric ? -1 : 1;
      }
      return Integer.signum(text.compareTo(o.text));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PreRelease preRelease && compareTo(preRelease) == 0;
    }

    @Override
    public int hashCode() {
      return text.hashCode();
    }
  }
}
