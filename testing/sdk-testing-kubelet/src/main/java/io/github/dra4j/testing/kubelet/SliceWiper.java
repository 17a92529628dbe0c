package io.github.dra4j.testing.kubelet;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the node's ResourceSlices the way the kubelet does: all of them at kubelet start, and a
 * driver's node-local ones (DeleteCollection with {@code
 * spec.nodeName=<node>,spec.driver=<driver>}) once the driver has had no connected instance for
 * the wiping delay.
 *
 * <p>Thread-safe; pending wipes and the history are guarded by this object's monitor, which is
 * never held while calling the API server or the usability check. Borrows the client (does not
 * close it) and the timer executor. Without a client it records nothing and deletes nothing.
 */
final class SliceWiper implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SliceWiper.class);

  private final KubernetesClient client;
  private final String nodeName;
  private final Duration delay;
  private final ScheduledExecutorService timers;
  private final Clock clock;
  private final Map<String, ScheduledFuture<?>> pending = new HashMap<>();
  private final List<SliceWipe> history = new ArrayList<>();
  private boolean closed;

  SliceWiper(KubernetesClient client, String nodeName, Duration delay,
      ScheduledExecutorService timers, Clock clock) {
    this.client = client;
    this.nodeName = nodeName;
    this.delay = delay;
    this.timers = timers;
    this.clock = clock;
  }

  /**
   * Schedules the wipe of a driver's slices after the delay, unless one is already pending. When
   * the delay is over the wipe happens only if {@code usable} still says no.
   *
   * @param driver the driver
   * @param usable tells whether the driver has a connected instance again
   */
  synchronized void schedule(String driver, Predicate<String> usable) {
    if (client == null || closed || pending.containsKey(driver)) {
      return;
    }
    LOG.debug("DRA driver {} is unusable; wiping its slices in {}", driver, delay);
    ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
    self[0] = timers.schedule(() -> due(driver, self, usable), delay.toNanos(),
        TimeUnit.NANOSECONDS);
    pending.put(driver, self[0]);
  }

  /**
   * Cancels a pending wipe of a driver's slices.
   *
   * @param driver the driver
   */
  synchronized void cancel(String driver) {
    ScheduledFuture<?> wipe = pending.remove(driver);
    if (wipe != null) {
      wipe.cancel(false);
      LOG.debug("DRA driver {} is usable again; wipe cancelled", driver);
    }
  }

  /** Cancels all pending wipes. */
  synchronized void cancelAll() {
    pending.values().forEach(wipe -> wipe.cancel(false));
    pending.clear();
  }

  synchronized Set<String> pendingDrivers() {
    return new TreeSet<>(pending.keySet());
  }

  synchronized List<SliceWipe> history() {
    return List.copyOf(history);
  }

  private void due(String driver, ScheduledFuture<?>[] self, Predicate<String> usable) {
    synchronized (this) {
      // schedule() holds the monitor until self[0] is set; is this wipe still the pending one?
      if (pending.get(driver) != self[0]) {
        return;
      }
      pending.remove(driver);
    }
    if (usable.test(driver)) {
      return;
    }
    delete(SliceWipe.Reason.DRIVER_UNUSABLE, driver);
  }

  /** Deletes every slice of the node at once, as a starting kubelet does. */
  void wipeNode() {
    if (client != null) {
      delete(SliceWipe.Reason.KUBELET_START, null);
    }
  }

  private void delete(SliceWipe.Reason reason, String driver) {
    String selector = "spec.nodeName=" + nodeName
        + (driver == null ? "" : ",spec.driver=" + driver);
    SliceWipe wipe;
    try {
      var slices = client.resources(ResourceSlice.class).withField("spec.nodeName", nodeName);
      (driver == null ? slices : slices.withField("spec.driver", driver)).delete();
      LOG.info("Deleted ResourceSlices with {} ({})", selector, reason);
      wipe = new SliceWipe(clock.instant(), reason, driver, selector, null);
    } catch (KubernetesClientException e) {
      LOG.warn("Deleting ResourceSlices with {} failed: {}", selector, e.getMessage());
      wipe = new SliceWipe(clock.instant(), reason, driver, selector, e.getMessage());
    }
    synchronized (this) {
      history.add(wipe);
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    cancelAll();
  }
}
