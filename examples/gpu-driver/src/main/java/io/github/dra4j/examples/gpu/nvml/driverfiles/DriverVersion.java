package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.util.Arrays;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The running NVIDIA driver's version, as NVML reports it ({@code 550.54.15}, {@code
 * 535.104.05}): the suffix of the driver's versioned library files and the name of its firmware
 * directory. Compared by number, so {@code 535.104.05} and {@code 535.104.5} (the semantic
 * version the driver publishes) are the same version, and missing trailing parts count as 0.
 *
 * @param text the version as given, one to four dot-separated numbers of up to 9 digits
 */
public record DriverVersion(String text) {

  private static final Pattern FORMAT = Pattern.compile("\\d{1,9}(\\.\\d{1,9}){0,3}");

  /**
   * Checks the text.
   *
   * @param text the version as given
   * @throws IllegalArgumentException if it is not one to four dot-separated numbers
   */
  public DriverVersion {
    Objects.requireNonNull(text, "text");
    if (!FORMAT.matcher(text).matches()) {
      throw new IllegalArgumentException("driver version \"" + text + "\" is not one to four"
          + " dot-separated numbers");
    }
  }

  /**
   * Whether a file name's version suffix is this version.
   *
   * @param suffix the text after {@code .so.} or a directory name, for example {@code
   *     550.54.15}
   * @return true if it is the same version by number; false for anything that is not a version
   */
  public boolean matches(String suffix) {
    if (!FORMAT.matcher(suffix).matches()) {
      return false;
    }
    long[] mine = numbers(text);
    long[] theirs = numbers(suffix);
    int length = Math.max(mine.length, theirs.length);
    return Arrays.equals(Arrays.copyOf(mine, length), Arrays.copyOf(theirs, length));
  }

  private static long[] numbers(String version) {
    return Arrays.stream(version.split("\\.")).mapToLong(Long::parseLong).toArray();
  }

  @Override
  public String toString() {
    return text;
  }
}
