package io.github.dra4j.lifecycle.internal.checkpoint;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A checkpoint file that could not be decoded and was renamed aside, so that nothing is lost and
 * the plugin can go on with no claims. Report it (log, event): the claims it held are no longer
 * known, and an operator may want to look at the kept file. Immutable.
 *
 * @param file the checkpoint file as it was named
 * @param keptAs where its bytes are now, in the same directory: {@code
 *     <file name>.corrupt-<UTC time>[-n]}
 * @param reason a message naming the file and what is wrong with it
 */
public record Corruption(Path file, Path keptAs, String reason) {

  /**
   * Checks that nothing is null.
   *
   * @throws NullPointerException if a component is null
   */
  public Corruption {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(keptAs, "keptAs");
    Objects.requireNonNull(reason, "reason");
  }
}
