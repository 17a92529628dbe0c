package io.github.dra4j.resourceslice;

/**
 * Receives errors the controller meets in the background: failed syncs (retried with backoff),
 * invalid pools (skipped until the next update), dropped fields. Called from the controller's
 * worker thread; implementations must not block for long.
 */
@FunctionalInterface
public interface ErrorHandler {

  /**
   * Handles one error.
   *
   * @param error the error, with its cause chain (e.g. a {@link DroppedFieldsException})
   * @param message what the controller was doing, e.g. {@code processing ResourceSlice objects},
   *     {@code pool validation failed}, {@code update ResourceSlice}
   */
  void handle(Throwable error, String message);
}
