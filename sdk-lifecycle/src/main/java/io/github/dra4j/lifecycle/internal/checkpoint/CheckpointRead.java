package io.github.dra4j.lifecycle.internal.checkpoint;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link CheckpointFile.Session#read()} found: the claims, and whether the file was corrupt
 * (then the claims are empty and the file was kept aside). Immutable.
 *
 * @param data the claims; empty for a missing or corrupt file
 * @param corruption the corrupt file that was kept aside, or empty
 */
public record CheckpointRead(CheckpointData data, Optional<Corruption> corruption) {

  /**
   * Checks that nothing is null.
   *
   * @throws NullPointerException if a component is null
   */
  public CheckpointRead {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(corruption, "corruption");
  }
}
