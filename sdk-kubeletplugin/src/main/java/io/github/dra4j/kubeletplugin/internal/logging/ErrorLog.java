package io.github.dra4j.kubeletplugin.internal.logging;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.kubeletplugin.RecoverableException;
import io.github.dra4j.resourceslice.DroppedFieldsException;
import io.github.dra4j.resourceslice.PoolValidationException;
import java.io.IOException;
import org.slf4j.Logger;

/**
 * How the default error handlers log a background error: an expected condition (the API server
 * unreachable, slow or refusing a request, a pool it would refuse, a file that cannot be read) as
 * one line with the messages of its cause chain, and anything else, which is a bug, with its stack
 * trace. Stateless.
 */
public final class ErrorLog {

  private ErrorLog() {}

  /**
   * Logs an error at ERROR.
   *
   * @param log where
   * @param error what went wrong
   * @param message where it happened
   */
  public static void error(Logger log, Throwable error, String message) {
    if (expected(error)) {
      log.error("{}: {}", LogText.text(message), LogText.text(causes(error)));
    } else {
      log.error("{}", LogText.text(message), error);
    }
  }

  /**
   * Whether an error is an expected condition rather than a bug: anything in its cause chain is
   * an API error or an I/O error, or a refusal of what the driver published.
   *
   * @param error an error
   * @return true for one line without a stack trace
   */
  public static boolean expected(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof KubernetesClientException || t instanceof IOException
          || t instanceof PoolValidationException || t instanceof DroppedFieldsException
          || t instanceof ExpectedCondition) {
        return true;
      }
    }
    return false;
  }

  /**
   * The messages of an error's cause chain, each once: {@code a: b: c}, skipping a message that
   * repeats the one before it (as wrappers often do).
   *
   * @param error an error
   * @return one line
   */
  public static String causes(Throwable error) {
    StringBuilder line = new StringBuilder();
    String previous = "";
    for (Throwable t = error; t != null && t != t.getCause(); t = t.getCause()) {
      if (t instanceof RecoverableException) {
        continue; // a mark, its message repeats its cause's
      }
      String text = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
      if (t.getClass().getName().startsWith("java.") && t.getMessage() != null
          && !(t instanceof RuntimeException)) {
        text = t.getClass().getName() + ": " + text;
      }
      if (text.isEmpty() || previous.contains(text)) {
        continue;
      }
      if (line.length() > 0) {
        line.append(": ");
      }
      line.append(text);
      previous = text;
    }
    return line.toString();
  }

  /**
   * Marks an error that states an expected condition in its message, so that it is logged in
   * one line.
   */
  public interface ExpectedCondition {}
}
