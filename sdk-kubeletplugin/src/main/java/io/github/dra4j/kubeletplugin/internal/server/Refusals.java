package io.github.dra4j.kubeletplugin.internal.server;

import io.github.dra4j.core.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts one kind of refusal of one server ({@value MetricNames#PLUGIN_REFUSALS}) and logs it at
 * WARN, at most once a minute with how many were not logged since, so that a flood of refused
 * connections cannot flood the log too. Thread-safe.
 */
public final class Refusals {

  private static final Logger LOG = LoggerFactory.getLogger(Refusals.class);
  private static final long LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final Counter counter;
  private final AtomicLong lastLogNanos = new AtomicLong();
  private final AtomicLong unlogged = new AtomicLong();
  private volatile boolean logged;

  /**
   * Registers the counter.
   *
   * @param registry where it goes
   * @param driverName tag {@value MetricNames#DRIVER_NAME}
   * @param server tag {@value MetricNames#SERVER}: {@code dra}, {@code registration} or {@code
   *     liveness}
   * @param reason tag {@value MetricNames#REASON}
   */
  public Refusals(MeterRegistry registry, String driverName, String server, String reason) {
    this.counter = Counter.builder(MetricNames.PLUGIN_REFUSALS)
        .description("What the plugin's gRPC servers refused to hold, by server and reason")
        .tag(MetricNames.DRIVER_NAME, driverName)
        .tag(MetricNames.SERVER, server)
        .tag(MetricNames.REASON, reason)
        .register(registry);
  }

  /**
   * Counts a refusal and logs it unless one was logged less than a minute ago.
   *
   * @param message what was refused and why, naming the limit and its value; made only when
   *     logged
   */
  public void refused(Supplier<String> message) {
    counter.increment();
    long now = System.nanoTime();
    long last = lastLogNanos.get();
    if (logged && now - last < LOG_INTERVAL_NANOS) {
      unlogged.incrementAndGet();
      return;
    }
    if (logged && !lastLogNanos.compareAndSet(last, now)) {
      unlogged.incrementAndGet(); // another thread logs now
      return;
    }
    lastLogNanos.set(now);
    logged = true;
    long before = unlogged.getAndSet(0);
    LOG.warn("{}{}", message.get(), before == 0 ? ""
        : " (and " + before + " more like it in the last minute, not logged)");
  }

  /**
   * The cause of a status a limit closed a call with: lets the call's log tell a refusal (already
   * counted and logged here) from a failure of the plugin. Carries no stack trace.
   *
   * @param reason what was refused
   * @return the cause
   */
  public static Throwable cause(String reason) {
    return new Refused(reason);
  }

  /**
   * Whether a status's cause says a limit refused the call.
   *
   * @param cause the status's cause, may be null
   * @return true for {@link #cause}'s
   */
  public static boolean isRefusal(Throwable cause) {
    return cause instanceof Refused;
  }

  /** A refusal by a limit, as a status's cause. */
  private static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  /**
   * How many were refused so far.
   *
   * @return the count
   */
  public long count() {
    return (long) counter.count();
  }
}
