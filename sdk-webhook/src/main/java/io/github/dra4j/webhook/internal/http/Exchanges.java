package io.github.dra4j.webhook.internal.http;

/**
 * Counts the requests in flight, so that a stopping server can wait for them to be answered
 * before it closes their connections. Thread-safe.
 */
public final class Exchanges {

  private int inFlight;

  /** A request has begun. */
  public synchronized void begin() {
    inFlight++;
  }

  /** A request has ended. */
  public synchronized void end() {
    inFlight--;
    if (inFlight == 0) {
      notifyAll();
    }
  }

  /**
   * Waits until no request is in flight.
   *
   * @param timeoutMillis the longest wait
   * @return true if none is in flight, false if some still were when the time was up
   * @throws InterruptedException if interrupted while waiting
   */
  public synchronized boolean awaitIdle(long timeoutMillis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (inFlight > 0) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    return true;
  }
}
