package io.github.dra4j.testing.cdi.injection;

import java.io.IOException;

/**
 * Looks up host paths the way a runtime does when it completes device nodes. The real one is
 * {@link #linux()}; tests may supply their own to model hardware the machine does not have.
 */
@FunctionalInterface
public interface HostDeviceNodes {

  /**
   * Reads a host path without following symbolic links.
   *
   * @param path the absolute host path
   * @return what is at the path
   * @throws IOException if the path does not exist or cannot be read (e.g. {@link
   *     java.nio.file.NoSuchFileException})
   */
  HostNode lstat(String path) throws IOException;

  /**
   * Returns the lookup that reads this machine's file system (Linux only).
   *
   * @return the lookup
   */
  static HostDeviceNodes linux() {
    return LinuxHostDeviceNodes.INSTANCE;
  }
}
