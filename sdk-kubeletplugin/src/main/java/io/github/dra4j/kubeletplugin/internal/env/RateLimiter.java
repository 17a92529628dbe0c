package io.github.dra4j.kubeletplugin.internal.env;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.concurrent.TimeUnit;

/**
 * Client-go's client-side rate limit for the fabric8 API client: a token bucket that holds {@code
 * burst} tokens and refills at {@code qps} per second; each request takes one, waiting for it
 * when the bucket is empty. The fabric8 client calls interceptors on the thread that sends the
 * request (a caller's or its own scheduler's), never on its I/O event loop, so waiting there
 * holds back that request only. Thread-safe.
 */
public final class RateLimiter implements Interceptor {

  private final double qps;
  private final int burst;
  private double tokens;
  private long refilledAt = System.nanoTime();

  /**
   * A limiter.
   *
   * @param qps requests per second on average, above 0
   * @param burst requests at once, at least 1
   */
  public RateLimiter(double qps, int burst) {
    this.qps = qps;
    this.burst = burst;
    this.tokens = burst;
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    long waitNanos = reserve();
    if (waitNanos > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(waitNanos);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Takes a token, possibly one that is yet to come; returns how long to wait for it. */
  synchronized long reserve() {
    long now = System.nanoTime();
    tokens = Math.min(burst, tokens + (now - refilledAt) / 1e9 * qps);
    refilledAt = now;
    tokens -= 1;
    return tokens >= 0 ? 0 : (long) (-tokens / qps * 1e9);
  }
}
