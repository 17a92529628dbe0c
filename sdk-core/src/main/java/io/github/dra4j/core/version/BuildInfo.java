package io.github.dra4j.core.version;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Properties;

/**
 * What a program was built from: its name, version, git commit and build time, read from the
 * resource {@code META-INF/dra4j/build-info/<artifact>.properties} that the program's build
 * writes (keys {@code name}, {@code version}, {@code commit} and {@code time}). One resource per
 * artifact, so a shaded jar holding several keeps them apart.
 *
 * <p>A value the build could not know is {@value #UNKNOWN}: the commit when the sources are not a
 * git checkout (a source archive, a container build without {@code .git}), or everything when the
 * classes run without the resource (straight from an IDE's output, say). dra4j's builds are
 * reproducible, so the build time is the pom's {@code project.build.outputTimestamp}, the time
 * of the release (or of the last one, between releases), never the clock's.
 *
 * @param name the program's name, e.g. {@code dra4j}
 * @param version the version its build had, e.g. {@code 0.1.0-SNAPSHOT}
 * @param commit the full git commit the sources were at, or {@value #UNKNOWN}
 * @param time its build time, ISO-8601 in UTC (the build's output timestamp), or
 *     {@value #UNKNOWN}
 */
public record BuildInfo(String name, String version, String commit, String time) {

  /** The value of anything the build could not know. */
  public static final String UNKNOWN = "unknown";

  /** Where the resources are, each named {@code <artifact>.properties}. */
  public static final String RESOURCE_DIRECTORY = "META-INF/dra4j/build-info/";

  /**
   * Checks the values.
   *
   * @param name the program's name
   * @param version its version, or {@value #UNKNOWN}
   * @param commit its git commit, or {@value #UNKNOWN}
   * @param time its build time, or {@value #UNKNOWN}
   * @throws NullPointerException if any is null
   */
  public BuildInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(time, "time");
  }

  /**
   * Reads the build information of an artifact through this class's class loader.
   *
   * @param artifact the artifact whose build wrote the resource, e.g. {@code dra4j-cli}
   * @param name the name to use when the resource does not give one
   * @return what the resource says, {@value #UNKNOWN} for whatever it does not
   * @throws UncheckedIOException if the resource exists but cannot be read
   */
  public static BuildInfo of(String artifact, String name) {
    return of(BuildInfo.class.getClassLoader(), artifact, name);
  }

  /**
   * Reads the build information of an artifact.
   *
   * @param loader the class loader to find the resource with
   * @param artifact the artifact whose build wrote the resource, e.g. {@code dra4j-cli}
   * @param name the name to use when the resource does not give one
   * @return what the resource says, {@value #UNKNOWN} for whatever it does not
   * @throws UncheckedIOException if the resource exists but cannot be read
   */
  public static BuildInfo of(ClassLoader loader, String artifact, String name) {
    Properties properties = new Properties();
    String resource = RESOURCE_DIRECTORY + artifact + ".properties";
    try (InputStream in = loader.getResourceAsStream(resource)) {
      if (in != null) {
        properties.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
    return new BuildInfo(value(properties, "name", name), value(properties, "version", UNKNOWN),
        value(properties, "commit", UNKNOWN), value(properties, "time", UNKNOWN));
  }

  /**
   * A value, or the fallback when it is missing, blank or a Maven property the build left
   * unresolved ({@code ${...}}).
   */
  private static String value(Properties properties, String key, String fallback) {
    String value = properties.getProperty(key, "").strip();
    return value.isEmpty() || value.startsWith("${") ? fallback : value;
  }

  /**
   * The one line every dra4j program prints for {@code --version} and logs at start.
   *
   * @return {@code <name> <version> (commit <commit>, built <time>)}
   */
  public String describe() {
    return name + " " + version + " (commit " + commit + ", built " + time + ")";
  }

  /**
   * The same as {@link #describe()}.
   *
   * @return {@code <name> <version> (commit <commit>, built <time>)}
   */
  @Override
  public String toString() {
    return describe();
  }
}
