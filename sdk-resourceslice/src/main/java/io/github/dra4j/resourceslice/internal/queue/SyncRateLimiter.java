package io.github.dra4j.resourceslice.internal.queue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The retry delay for failed pool syncs, as client-go's default controller rate limiter: the
 * longer of a per-item exponential backoff (5 ms doubling per consecutive failure, at most 1000 s)
 * and an overall token bucket (10 per second, burst 100). Thread-safe (synchronized).
 */
public final class SyncRateLimiter {

  private static final long BASE_NANOS = Duration.ofMillis(5).toNanos();
  private static final long MAX_NANOS = Duration.ofSeconds(1000).toNanos();
  private static final double TOKENS_PER_SECOND = 10;
  private static final double BURST = 100;

  private final LongSupplier nanoClock;
  private final Map<String, Integer> failures = new HashMap<>();
  private double tokens = BURST;
  private long lastRefill;

  /**
   * Creates a limiter.
   *
   * @param nanoClock monotonic time in nanoseconds (e.g. {@code System::nanoTime})
   */
  public SyncRateLimiter(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.lastRefill = nanoClock.getAsLong();
  }

  /**
   * Records a failure of an item and returns how long to wait before retrying it.
   *
   * @param item the pool name
   * @return the delay
   */
  public synchronized Duration when(String item) {
    int exponent = failures.merge(item, 1, Integer::sum) - 1;
    long backoff = exponent >= 40 ? MAX_NANOS : Math.min(MAX_NANOS, BASE_NANOS << exponent);
    return Duration.ofNanos(Math.max(backoff, reserveToken()));
  }

  private long reserveToken() {
    long now = nanoClock.getAsLong();
    tokens = Math.min(BURST, tokens + (now - lastRefill) / 1e9 * TOKENS_PER_SECOND);
    lastRefill = now;
    tokens -= 1;
    return tokens >= 0 ? 0 : (long) Math.ceil(-tokens / TOKENS_PER_SECOND * 1e9);
  }

  /**
   * Forgets the failures of an item after it succeeded.
   *
   * @param item the pool name
   */
  public synchronized void forget(String item) {
    failures.remove(item);
  }

  /**
   * Counts consecutive failures of an item.
   *
   * @param item the pool name
   * @return failures since the last {@link #forget}
   */
  public synchronized int failures(String item) {
    return failures.getOrDefault(item, 0);
  }
}
