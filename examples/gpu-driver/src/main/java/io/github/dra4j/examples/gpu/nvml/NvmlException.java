package io.github.dra4j.examples.gpu.nvml;

/**
 * An NVML call returned something other than {@code NVML_SUCCESS}; the message names the call,
 * what it was about, the return code and NVML's description of it ({@code nvmlErrorString}).
 */
public final class NvmlException extends Exception {

  private static final long serialVersionUID = 1L;

  /** The call's {@code nvmlReturn_t}. */
  private final int returnCode;

  /**
   * Creates the exception.
   *
   * @param message what failed, naming the call
   * @param returnCode the call's {@code nvmlReturn_t}
   */
  public NvmlException(String message, int returnCode) {
    super(message);
    this.returnCode = returnCode;
  }

  /**
   * The call's result code.
   *
   * @return the {@code nvmlReturn_t}, for example 15 ({@code NVML_ERROR_GPU_IS_LOST})
   */
  public int returnCode() {
    return returnCode;
  }
}
