package io.github.dra4j.testing.kubelet;

import java.time.Duration;

/**
 * Waiting for asynchronous outcomes in tests (the module has no Awaitility): {@link #until} retries
 * an assertion until it passes, {@link #holdsFor} checks that one keeps passing.
 */
final class Poll {

  /** Generous, for a loaded two-core machine. */
  static final Duration LONG = Duration.ofSeconds(30);

  private Poll() {}

  /** An assertion that may throw. */
  interface Check {
    void run() throws Exception;
  }

  /**
   * Retries a check every 20 ms until it passes.
   *
   * @param timeout when to give up and rethrow the last failure
   * @param check the assertion
   */
  static void until(Duration timeout, Check check) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        check.run();
        return;
      } catch (Exception | AssertionError e) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("still failing after " + timeout + ": " + e.getMessage(), e);
        }
      }
      pause();
    }
  }

  /**
   * Checks that an assertion passes throughout a period (for "nothing happens" expectations).
   *
   * @param period how long it must keep passing
   * @param check the assertion
   */
  static void holdsFor(Duration period, Check check) {
    long end = System.nanoTime() + period.toNanos();
    do {
      try {
        check.run();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      pause();
    } while (System.nanoTime() < end);
  }

  private static void pause() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
