package io.github.dra4j.kubeletplugin.internal.serialize;

import java.io.IOException;

/**
 * Makes prepare and unprepare calls run one at a time. Prepare takes the lock after it fetched
 * the claims and holds it for the driver call and the device metadata; unprepare holds it for the
 * driver call and the metadata clean-up.
 *
 * <p>Three policies: {@link #none()} (the driver handles concurrency), {@link #inProcess()} (one
 * lock for all calls of this plugin), and {@link FileLockSerializer} for rolling updates, where
 * two driver processes must exclude each other too.
 */
public interface CallSerializer extends AutoCloseable {

  /**
   * Blocks until the caller may run, and returns the permit to close when done.
   *
   * @return the permit; closing it lets the next call run
   * @throws IOException if the lock file cannot be locked
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  Permit acquire() throws IOException, InterruptedException;

  /** Releases resources such as an open lock file. */
  @Override
  default void close() {}

  /** A held right to run; closing it releases the right. */
  interface Permit extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * No serialization: calls run concurrently.
   *
   * @return a serializer that never waits
   */
  static CallSerializer none() {
    return () -> () -> {};
  }

  /**
   * One in-process lock for all calls (the default without rolling updates).
   *
   * @return a fair in-process serializer
   */
  static CallSerializer inProcess() {
    return new InProcessSerializer();
  }
}
