package io.github.dra4j.kubeletplugin;

/**
 * Thrown by {@link KubeletPluginBuilder#start()} when the plugin cannot start: a mandatory option
 * is missing, options contradict each other, or a socket cannot be created. Nothing is left
 * running and no socket is left behind when it is thrown.
 */
public final class PluginStartException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is wrong, naming the option or path
   */
  public PluginStartException(String message) {
    super(message);
  }

  /**
   * Creates the exception with a cause.
   *
   * @param message what is wrong, naming the option or path
   * @param cause the underlying error
   */
  public PluginStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
