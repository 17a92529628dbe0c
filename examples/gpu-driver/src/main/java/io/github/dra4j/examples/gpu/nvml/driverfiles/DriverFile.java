package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.util.Objects;

/**
 * A file of the driver's installation that containers get as a bind mount.
 *
 * @param kind what it is, which decides the mount options
 * @param containerPath the path in the container: its path inside the driver root
 * @param hostPath the mount source on the host: under the host driver root
 */
public record DriverFile(Kind kind, String containerPath, String hostPath) {

  /**
   * Checks the fields.
   *
   * @param kind not null
   * @param containerPath absolute
   * @param hostPath absolute
   */
  public DriverFile {
    Objects.requireNonNull(kind, "kind");
    if (!containerPath.startsWith("/") || !hostPath.startsWith("/")) {
      throw new IllegalArgumentException("driver file paths must be absolute, got "
          + containerPath + " and " + hostPath);
    }
  }

  /** What a driver file is. */
  public enum Kind {
    /** A user-space library of the driver's version. */
    LIBRARY,
    /** A library mounted a second time under a link name, when no hook makes the link. */
    LIBRARY_LINK,
    /** A utility or compute program. */
    BINARY,
    /** GSP firmware of the running driver version. */
    FIRMWARE,
    /** A daemon's Unix socket (persistenced, fabric manager). */
    SOCKET
  }
}
