package io.github.dra4j.resourceslice.internal.sync;

/**
 * A pool sync failed and will be retried with backoff. The message names the step that failed,
 * worded as the Go controller words it ({@code create resource slice: <cause>}, {@code update
 * resource slice: <cause>}, {@code remove slices: delete resource slice: <cause>}, {@code
 * retrieve node "<name>": <cause>}, where a Node lookup that got no answer names its URL: {@code
 * retrieve node "<name>": GET <url>: <cause>}); the cause is kept.
 */
public final class SyncException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param prefix what failed
   * @param cause why
   */
  public SyncException(String prefix, Throwable cause) {
    super(prefix + ": " + cause.getMessage(), cause);
  }
}
