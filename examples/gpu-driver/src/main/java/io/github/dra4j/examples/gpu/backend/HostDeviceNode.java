package io.github.dra4j.examples.gpu.backend;

import io.github.dra4j.cdi.spec.DeviceNode;
import java.util.Objects;

/**
 * A device node a container gets through CDI.
 *
 * @param path the path inside the container, for example {@code /dev/nvidia0}
 * @param hostPath the path on the host, which differs when the driver is installed under a driver
 *     root (for example {@code /run/nvidia/driver/dev/nvidia0}); equal to {@code path} otherwise
 */
public record HostDeviceNode(String path, String hostPath) {

  /**
  
   * Checks the fields.
  
   *
  
   * @param path the path inside the container, for example {@code /dev/nvidia0}
  
   * @param hostPath the path on the host, which differs when the driver is installed under a driver root (for example {@code /run/nvidia/driver/dev/nvidia0}); equal to {@code path} otherwise
  
   */

  public HostDeviceNode {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(hostPath, "hostPath");
    if (!path.startsWith("/") || !hostPath.startsWith("/")) {
      throw new IllegalArgumentException("device node paths must be absolute, got " + path
          + " and " + hostPath);
    }
  }

  /**
   * The node as a CDI spec lists it.
   *
   * @return the CDI device node
   */
  public DeviceNode toCdi() {
    return DeviceNode.builder(path).hostPath(hostPath).build();
  }
}
