package io.github.dra4j.lifecycle.internal.store;

import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.kubeletplugin.CallContext;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link ClaimStore#sweepGone} in the background, every so often, so that claims deleted
 * while the kubelet could not unprepare them (a node down while its pods were deleted) are
 * unprepared. Owns one daemon thread; thread-safe.
 */
public final class GoneClaimSweep implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(GoneClaimSweep.class);

  private final ClaimStore<?> store;
  private final Supplier<CallContext> contexts;
  private final ScheduledExecutorService thread;

  /**
   * Prepares a sweep; nothing runs until {@link #start(Duration)}.
   *
   * @param driverName names the thread
   * @param store the claims (borrowed; closed by the caller after this)
   * @param contexts detached contexts for the driver's undo
   */
  public GoneClaimSweep(String driverName, ClaimStore<?> store, Supplier<CallContext> contexts) {
    this.store = store;
    this.contexts = contexts;
    this.thread = Executors.newSingleThreadScheduledExecutor(
        new DaemonThreads("dra4j-claim-sweep-" + driverName));
  }

  /**
   * Runs the first sweep in the background after a random half to whole {@code interval}, then
   * one every {@code interval}. Not at once: a plugin restart or an upgrade would then read every
   * prepared claim from the API server right away, on every node a DaemonSet rollout reaches at
   * the same time, for claims the kubelet itself unprepares when their pods go; the sweep is only
   * the backstop for a node that was down meanwhile.
   *
   * @param interval the pause between sweeps
   */
  public void start(Duration interval) {
    long millis = interval.toMillis();
    long first = millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1);
    // Stopped by close, not through this future; sweep logs its own failures.
    var unused = thread.scheduleWithFixedDelay(this::sweep, first, millis, TimeUnit.MILLISECONDS);
  }

  private void sweep() {
    try {
      store.sweepGone(contexts.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("Sweep for claims gone from the API server failed; trying again later", e);
    }
  }

  /** Stops the thread, waiting briefly for a sweep in progress. */
  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
