package io.github.dra4j.resourceslice;

/**
 * Hears the outcome of every pool sync ({@link ControllerOptions.Builder#poolStatusListener}).
 * With a listener, failed syncs and refused pools are reported to it and not to the {@link
 * ErrorHandler}, so that its owner can report a change of a pool's state once instead of every
 * retry; the handler still gets dropped fields and refused updates of the desired state. Called
 * on the controller's worker thread, one call at a time; implementations must not block for
 * long.
 */
@FunctionalInterface
public interface PoolStatusListener {

  /**
   * Receives a pool's state after a sync attempt.
   *
   * @param status the pool's state; its {@link PoolStatus#error()} says whether the attempt failed
   */
  void poolStatus(PoolStatus status);
}
