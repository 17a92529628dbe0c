package io.github.dra4j.resourceslice.internal.queue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The controller's work queue of pool names, with client-go's semantics: an item is queued at most
 * once; an item added while it is being processed is processed again after {@link #done}; delayed
 * additions keep the earliest due time; failed items come back after {@link SyncRateLimiter}'s
 * delay. Any number of producers, one consumer (the controller's worker). Thread-safe: all state is
 * guarded by {@link #lock}.
 */
public final class PoolQueue {

  private final Object lock = new Object();
  private final ArrayDeque<String> ready = new ArrayDeque<>();
  private final Set<String> dirty = new HashSet<>();
  private final Set<String> processing = new HashSet<>();
  private final Map<String, Long> waitingUntil = new HashMap<>();
  private final SyncRateLimiter limiter;
  private final LongSupplier nanoClock;
  private boolean shutDown;

  /**
   * Creates a queue.
   *
   * @param limiter the retry delay of failed items
   * @param nanoClock monotonic time in nanoseconds, the same as the limiter's
   */
  public PoolQueue(SyncRateLimiter limiter, LongSupplier nanoClock) {
    this.limiter = limiter;
    this.nanoClock = nanoClock;
  }

  /**
   * Queues an item now.
   *
   * @param item the pool name
   */
  public void add(String item) {
    synchronized (lock) {
      addLocked(item);
    }
  }

  private void addLocked(String item) {
    if (shutDown || !dirty.add(item)) {
      return;
    }
    if (!processing.contains(item)) {
      ready.addLast(item);
      lock.notifyAll();
    }
  }

  /**
   * Queues an item after a delay; if it is already waiting, the earlier due time wins.
   *
   * @param item the pool name
   * @param delay zero or negative queues at once
   */
  public void addAfter(String item, Duration delay) {
    synchronized (lock) {
      if (shutDown) {
        return;
      }
      if (delay.isZero() || delay.isNegative()) {
        addLocked(item);
        return;
      }
      long due = nanoClock.getAsLong() + delay.toNanos();
      waitingUntil.merge(item, due, Math::min);
      lock.notifyAll();
    }
  }

  /**
   * Queues a failed item after its backoff.
   *
   * @param item the pool name
   */
  public void addRateLimited(String item) {
    addAfter(item, limiter.when(item));
  }

  /**
   * Resets the backoff of an item that was processed successfully.
   *
   * @param item the pool name
   */
  public void forget(String item) {
    limiter.forget(item);
  }

  /**
   * Waits for the next item and marks it as being processed.
   *
   * @return the item, or null once the queue is shut down
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public String take() throws InterruptedException {
    synchronized (lock) {
      while (true) {
        if (shutDown) {
          return null;
        }
        long now = nanoClock.getAsLong();
        long nextDue = Long.MAX_VALUE;
        for (var it = waitingUntil.entrySet().iterator(); it.hasNext();) {
          var entry = it.next();
          if (entry.getValue() - now <= 0) {
            it.remove();
            addLocked(entry.getKey());
          } else {
            nextDue = Math.min(nextDue, entry.getValue());
          }
        }
        String item = ready.pollFirst();
        if (item != null) {
          dirty.remove(item);
          processing.add(item);
          return item;
        }
        if (nextDue == Long.MAX_VALUE) {
          lock.wait();
        } else {
          long waitNanos = nextDue - now;
          TimeUnit.NANOSECONDS.timedWait(lock, Math.max(1, waitNanos));
        }
      }
    }
  }

  /**
   * Marks an item as processed; if it was added meanwhile it is queued again.
   *
   * @param item the item returned by {@link #take()}
   */
  public void done(String item) {
    synchronized (lock) {
      processing.remove(item);
      if (dirty.contains(item) && !shutDown) {
        ready.addLast(item);
        lock.notifyAll();
      }
    }
  }

  /**
   * Tells whether an item is waiting for a delayed addition.
   *
   * @param item the pool name
   * @return true if a delayed addition of it is pending
   */
  public boolean isWaiting(String item) {
    synchronized (lock) {
      return waitingUntil.containsKey(item);
    }
  }

  /**
   * Counts items queued or waiting.
   *
   * @return ready plus delayed items
   */
  public int size() {
    synchronized (lock) {
      return ready.size() + waitingUntil.size();
    }
  }

  /** Stops the queue: {@link #take()} returns null from now on. */
  public void shutDown() {
    synchronized (lock) {
      shutDown = true;
      lock.notifyAll();
    }
  }
}
