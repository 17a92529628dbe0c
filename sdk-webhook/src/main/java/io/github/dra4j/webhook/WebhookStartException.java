package io.github.dra4j.webhook;

/**
 * Thrown by {@link AdmissionWebhookServerBuilder#start()} when the webhook cannot start for a
 * reason in its settings or surroundings, not a bug: a malformed environment variable, a TLS file
 * that is missing, unreadable or unusable, a key that does not belong to its certificate, a port
 * that cannot be bound. The message is one line that names the setting and its value (a path, a
 * port), such as {@code TLS_CERT_FILE="/tls/tls.crt": no such file}, fit to print as it is without
 * a stack trace. Nothing is left running when it is thrown.
 */
public final class WebhookStartException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is wrong, naming the setting and its value
   * @param cause the underlying error, or null
   */
  public WebhookStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
