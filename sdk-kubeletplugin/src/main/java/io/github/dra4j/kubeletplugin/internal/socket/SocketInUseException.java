package io.github.dra4j.kubeletplugin.internal.socket;

import java.nio.file.Path;

/**
 * Thrown when a socket path is already served by a live process, which dra4j never takes over.
 */
public final class SocketInUseException extends java.io.IOException {
  private static final long serialVersionUID = 1L;

  /** The path that is in use. */
  private final transient Path path;

  /**
   * Creates the exception.
   *
   * @param path the socket path another process serves
   */
  public SocketInUseException(Path path) {
    super(
        "socket \""
            + path
            + "\" is served by a live process; refusing to take it over (stop that process or"
            + " choose another socket name)");
    this.path = path;
  }

  /**
   * The socket path another process serves.
   *
   * @return the path
   */
  public Path path() {
    return path;
  }
}
