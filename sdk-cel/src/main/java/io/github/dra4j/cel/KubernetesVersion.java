package io.github.dra4j.cel;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes release as {@code major.minor}, e.g. {@code 1.34}: the version of an API server or
 * the compatibility version it validates new expressions for. Patch levels do not change the CEL
 * environment and are not kept. Immutable; ordered by major, then minor.
 *
 * @param major the major version, at least 1
 * @param minor the minor version, at least 0
 */
public record KubernetesVersion(int major, int minor) implements Comparable<KubernetesVersion> {

  private static final Pattern TEXT = Pattern
      .compile("v?([0-9]{1,4})\\.([0-9]{1,4})(?:\\.[0-9]{1,6})?(?:[-+][0-9A-Za-z.+-]*)?");

  /**
   * Checks the numbers.
   *
   * @param major the major version, at least 1
   * @param minor the minor version, at least 0
   * @throws IllegalArgumentException naming the part and the value when it is out of range
   */
  public KubernetesVersion {
    if (major < 1) {
      throw new IllegalArgumentException("major must be at least 1, got " + major);
    }
    if (minor < 0) {
      throw new IllegalArgumentException("minor must not be negative, got " + minor);
    }
  }

  /**
   * Returns the version {@code major.minor}.
   *
   * @param major the major version, at least 1
   * @param minor the minor version, at least 0
   * @return the version
   * @throws IllegalArgumentException naming the part and the value when it is out of range
   */
  public static KubernetesVersion of(int major, int minor) {
    return new KubernetesVersion(major, minor);
  }

  /**
   * Parses a version as Kubernetes prints it: {@code 1.34}, {@code v1.34}, or a full release
   * such as {@code v1.36.2} or {@code v1.37.0-alpha.1} (what {@code kubectl version} shows); the
   * patch level and any suffix are dropped.
   *
   * @param text the version text
   * @return the version
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException naming the text when it is not a version
   */
  public static KubernetesVersion parse(String text) {
    Matcher matcher = TEXT.matcher(text);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "Kubernetes version must look like 1.34 or v1.34.2, got \"" + text + "\"");
    }
    return of(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)));
  }

  /**
   * Returns the minor release before this one, the default compatibility version of an API
   * server.
   *
   * @return {@code major.(minor-1)}
   * @throws IllegalStateException if this is a {@code .0} release, which has no previous minor
   *     release of the same major version
   */
  public KubernetesVersion previousMinor() {
    if (minor == 0) {
      throw new IllegalStateException(this + " has no previous minor release");
    }
    return of(major, minor - 1);
  }

  /**
   * Returns whether this release is the given one or a later one.
   *
   * @param other the release to compare with
   * @return true if this version is not older than {@code other}
   */
  public boolean isAtLeast(KubernetesVersion other) {
    return compareTo(other) >= 0;
  }

  @Override
  public int compareTo(KubernetesVersion other) {
    return major != other.major
        ? Integer.compare(major, other.major)
        : Integer.compare(minor, other.minor);
  }

  /**
   * Returns {@code major.minor}.
   *
   * @return e.g. {@code 1.34}, the form {@link #parse} reads back
   */
  @Override
  public String toString() {
    return major + "." + minor;
  }
}
