package io.github.dra4j.testing.cdi.injection;

/**
 * What the runtime learns about a host path when it completes a device node: the result of
 * {@code lstat} (symbolic links are not followed).
 *
 * @param type {@code b}, {@code c} or {@code p} for block, char and FIFO nodes; empty for anything
 *     else (regular file, directory, symbolic link)
 * @param major the major number (0 if not a device)
 * @param minor the minor number (0 if not a device)
 * @param permissions the permission bits, e.g. {@code 0666}
 */
public record HostNode(String type, long major, long minor, int permissions) {

  /**
   * Tells whether the path is a block, char or FIFO node.
   *
   * @return true if it is
   */
  public boolean isDeviceNode() {
    return !type.isEmpty();
  }
}
