package io.github.dra4j.testing.apiserver.internal.watch;

import java.time.Duration;

/**
 * The options of one watch request, already checked against each other. Immutable.
 *
 * @param resourceVersion the version to resume after; 0 starts with the current objects
 * @param timeout when the server ends the watch, or null for never
 * @param sendInitialEvents whether to start with the current objects and then a bookmark marking
 *     the end of them ({@code sendInitialEvents=true}, the streaming list of client-go informers)
 */
public record WatchRequest(long resourceVersion, Duration timeout, boolean sendInitialEvents) {

  /**
   * Checks the values.
   *
   * @param resourceVersion the version to resume after, at least 0
   * @param timeout a positive duration, or null for never
   * @param sendInitialEvents whether to start with the current objects and an end bookmark
   * @throws IllegalArgumentException if the resource version is negative or the timeout is not
   *     positive
   */
  public WatchRequest {
    if (resourceVersion < 0) {
      throw new IllegalArgumentException(
          "resourceVersion must not be negative: " + resourceVersion);
    }
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout);
    }
  }
}
