package io.github.dra4j.resourceslice;

/**
 * How many writes the controller made successfully since it started.
 *
 * @param creates ResourceSlices created
 * @param updates ResourceSlices updated
 * @param deletes ResourceSlices deleted (a delete answered with Not Found is not counted)
 */
public record ControllerStats(long creates, long updates, long deletes) {

  /**
   * Sums all writes.
   *
   * @return creates + updates + deletes
   */
  public long writes() {
    return creates + updates + deletes;
  }
}
