package io.github.dra4j.testing.kubelet;

import java.time.Duration;

/**
 * Exponential backoff between registration attempts of one socket: the initial delay after the
 * first failure, doubling after each further one, capped.
 *
 * @param initial delay after the first failure
 * @param max the cap
 */
record Backoff(Duration initial, Duration max) {

  /**
   * The delay after a number of consecutive failures.
   *
   * @param failures at least 1
   * @return {@code min(max, initial * 2^(failures-1))}
   */
  Duration delay(int failures) {
    Duration delay = initial;
    for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(max) > 0 ? max : delay;
  }
}
