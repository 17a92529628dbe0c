package io.github.dra4j.cdi.spec;

import java.util.Optional;

/**
 * The CDI spec versions a {@code cdiVersion} field may name, oldest first. Runtimes accept a file
 * only if they know its version, so writers stamp the lowest version whose features the file uses
 * ({@link MinimumVersion}).
 */
public enum CdiVersion {
  /** Pre-release; known to the library but always below the accepted minimum. */
  V0_1_0("0.1.0"),
  /** Pre-release; known to the library but always below the accepted minimum. */
  V0_2_0("0.2.0"),
  /** First released spec and the lowest version runtimes accept. */
  V0_3_0("0.3.0"),
  /** Adds the mount {@code type}. */
  V0_4_0("0.4.0"),
  /** Adds the device node {@code hostPath}; device names may start with a digit. */
  V0_5_0("0.5.0"),
  /** Adds spec and device {@code annotations}; dots in the class part of {@code kind}. */
  V0_6_0("0.6.0"),
  /** Adds {@code intelRdt} and {@code additionalGids}. */
  V0_7_0("0.7.0"),
  /** No format change. */
  V0_8_0("0.8.0"),
  /** No format change. */
  V1_0_0("1.0.0"),
  /** Adds {@code netDevices}, intelRdt {@code schemata} and {@code enableMonitoring}. */
  V1_1_0("1.1.0");

  /** The lowest version a runtime accepts. */
  public static final CdiVersion EARLIEST_ACCEPTED = V0_3_0;

  /** The newest version this SDK knows (the newest released spec). */
  public static final CdiVersion LATEST = V1_1_0;

  private final String text;

  CdiVersion(String text) {
    this.text = text;
  }

  /**
   * Returns the version as written in {@code cdiVersion}, without a leading {@code v}.
   *
   * @return e.g. {@code 0.5.0}
   */
  public String text() {
    return text;
  }

  /**
   * Parses a {@code cdiVersion} value the way runtimes do: one leading {@code v} is stripped and
   * the rest must equal a known version exactly.
   *
   * @param value the field value, e.g. {@code 0.5.0} or {@code v1.1.0}
   * @return the version, or empty if the value names no known version
   */
  public static Optional<CdiVersion> parse(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String bare = value.startsWith("v") ? value.substring(1) : value;
    for (CdiVersion version : values()) {
      if (version.text.equals(bare)) {
        return Optional.of(version);
      }
    }
    return Optional.empty();
  }

  /**
   * Tells whether this version is the same as or newer than another.
   *
   * @param other the version to compare with
   * @return true if {@code this >= other}
   */
  public boolean isAtLeast(CdiVersion other) {
    return compareTo(other) >= 0;
  }

  /**
   * Returns {@link #text()}.
   *
   * @return the version text
   */
  @Override
  public String toString() {
    return text;
  }
}
