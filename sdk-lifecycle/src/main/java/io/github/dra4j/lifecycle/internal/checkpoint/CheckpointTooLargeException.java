package io.github.dra4j.lifecycle.internal.checkpoint;

import java.io.IOException;

/**
 * A checkpoint write refused because the file would exceed {@link CheckpointFile#MAX_BYTES}, the
 * size it is read with: nothing was written. Unlike a full disk, waiting does not help; the
 * claims must become fewer (or their driver state smaller).
 */
public final class CheckpointTooLargeException extends IOException {

  private static final long serialVersionUID = 1L;

  /**
   * Refuses a write.
   *
   * @param message names the file, the size and the limit
   */
  CheckpointTooLargeException(String message) {
    super(message);
  }
}
