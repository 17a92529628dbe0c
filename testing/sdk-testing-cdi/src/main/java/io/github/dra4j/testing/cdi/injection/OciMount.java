package io.github.dra4j.testing.cdi.injection;

import java.util.List;

/**
 * An entry of the OCI {@code mounts} list.
 *
 * @param destination the mount point in the container
 * @param type the file system type; empty if not set
 * @param source the source (host path or pseudo source)
 * @param options the mount options
 */
public record OciMount(String destination, String type, String source, List<String> options) {

  /**
   * Copies the options.
   *
   * @param destination the mount point in the container
   * @param type the file system type
   * @param source the source (host path or pseudo source)
   * @param options the mount options
   */
  public OciMount {
    options = List.copyOf(options);
  }
}
