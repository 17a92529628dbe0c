package io.github.dra4j.examples.gpu.backend;

import java.util.Objects;

/**
 * A device node a container gets through CDI.
 *
 * @param path the path inside the container, for example {@code /dev/nvidia0}
 * @param hostPath the path on the host, which differs when the driver is installed under a driver
 *     root (for example {@code /run/nvidia/driver/dev/nvidia0}); equal to {@code path} otherwise
 */
public record DeviceNode(String path, String hostPath) {

  /**

   * Checks the fields.

   *

   * @param path the path inside the container, for example {@code /dev/nvidia0}

   * @param hostPath the path on the host, which differs when the driver is installed under a driver root (for example {@code /run/nvidia/driver/dev/nvidia0}); equal to {@code path} otherwise

   */

  public DeviceNode {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(hostPath, "hostPath");
    if (!path.startsWith("/") || !hostPath.startsWith("/")) {
      throw new IllegalArgumentException("device node paths must be absolute, got " + path
          + " and " + hostPath);
    }
  }
}
