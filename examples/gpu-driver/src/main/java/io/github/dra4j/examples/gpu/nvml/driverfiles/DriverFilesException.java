package io.github.dra4j.examples.gpu.nvml.driverfiles;

/** A driver installation that lacks a file containers cannot do without, such as libcuda. */
public final class DriverFilesException extends Exception {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is missing and every path tried
   */
  public DriverFilesException(String message) {
    super(message);
  }
}
