package io.github.dra4j.kubeletplugin.spi;

import io.github.dra4j.kubeletplugin.internal.logging.ErrorLog;
import org.slf4j.Logger;

/**
 * How {@link io.github.dra4j.kubeletplugin.DraDriver#handleError}'s default logs an error, for a
 * driver interface that offers the same default: an expected condition (the API server
 * unreachable or refusing a request, an I/O error, a refused pool) as one ERROR line with the
 * messages of its causes, anything else, which is a bug, with its stack trace. Stateless.
 */
public final class DefaultErrorLog {

  private DefaultErrorLog() {}

  /**
   * Logs an error at ERROR.
   *
   * @param log the logger to log with
   * @param error what went wrong
   * @param message where it happened
   */
  public static void error(Logger log, Throwable error, String message) {
    ErrorLog.error(log, error, message);
  }
}
