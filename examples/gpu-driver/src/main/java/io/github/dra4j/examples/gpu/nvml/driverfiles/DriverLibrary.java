package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.util.List;

/**
 * A library of the driver found under the driver root.
 *
 * @param name its name before the version, for example {@code libcuda.so}
 * @param path its real path inside the root, for example {@code
 *     /usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15}
 * @param links the names of the links to it in its directory that a program loads it by, such
 *     as {@code libcuda.so.1} (its SONAME), from the linker cache or the links beside it
 * @param source where it was found: {@code ld.so.cache} or {@code search}
 */
public record DriverLibrary(String name, String path, List<String> links, String source) {

  /**
   * Copies the links.
   *
   * @param name the name before the version
   * @param path the real path inside the root
   * @param links the link names
   * @param source where it was found
   */
  public DriverLibrary {
    links = List.copyOf(links);
  }

  /**
   * The directory it is in, inside the root.
   *
   * @return for example {@code /usr/lib/x86_64-linux-gnu}
   */
  public String directory() {
    int slash = path.lastIndexOf('/');
    return slash == 0 ? "/" : path.substring(0, slash);
  }

  /**
   * Its file name.
   *
   * @return for example {@code libcuda.so.550.54.15}
   */
  public String fileName() {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
