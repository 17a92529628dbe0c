package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.io.IOException;

/** A linker cache that cannot be used: too large, truncated, of an unknown format or corrupt. */
public final class LdCacheException extends IOException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is wrong, naming the file and the offending value
   */
  public LdCacheException(String message) {
    super(message);
  }
}
