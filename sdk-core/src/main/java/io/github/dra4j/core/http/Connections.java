package io.github.dra4j.core.http;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open connections of one server, oldest first, and the request bodies they hold in memory.
 * A new connection beyond the limit takes the place of the oldest one that is not being answered
 * (a connection that stalls in its handshake or its headers, or waits idle): a client that opens
 * connections and sends nothing cannot keep the server's own clients out, and one whose request
 * is being answered is never cut off for it. When every connection is being answered, the new
 * one is closed. Thread-safe.
 */
final class Connections {

  private static final Logger LOG = LoggerFactory.getLogger(Connections.class);

  private final String name;
  private final int max;
  private final long bodyBudget;
  private final LinkedHashSet<HttpConnection> open = new LinkedHashSet<>();
  private final AtomicLong buffered = new AtomicLong();
  private final AtomicLong evicted = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();

  Connections(String name, int max, long bodyBudget) {
    this.name = name;
    this.max = max;
    this.bodyBudget = bodyBudget;
  }

  /**
   * Admits a new connection, closing the oldest idle one to make room if the limit is reached.
   *
   * @return false if the new connection must be closed: every open one is being answered
   */
  boolean admit(HttpConnection connection) {
    HttpConnection victim = null;
    synchronized (this) {
      if (open.size() >= max) {
        for (Iterator<HttpConnection> it = open.iterator(); it.hasNext();) {
          HttpConnection candidate = it.next();
          if (!candidate.busy()) {
            it.remove();
            victim = candidate;
            break;
          }
        }
        if (victim == null) {
          refused.incrementAndGet();
          return false;
        }
        evicted.incrementAndGet();
      }
      open.add(connection);
    }
    if (victim != null) {
      victim.evict();
      long count = evicted.get();
      if (isPowerOfTen(count)) {
        LOG.warn("{}: {} connections open, the limit: closed the oldest idle one to admit a new"
            + " one ({} so far)", name, max, count);
      }
    }
    return true;
  }

  private static boolean isPowerOfTen(long n) {
    long p = 1;
    while (p < n && p <= Long.MAX_VALUE / 10) {
      p *= 10;
    }
    return p == n;
  }

  synchronized void remove(HttpConnection connection) {
    open.remove(connection);
  }

  synchronized int size() {
    return open.size();
  }

  synchronized List<HttpConnection> snapshot() {
    return new ArrayList<>(open);
  }

  /**
   * Reserves memory for a request body.
   *
   * @param bytes how many
   * @return false if the server already holds its budget of request bodies
   */
  boolean reserve(long bytes) {
    while (true) {
      long now = buffered.get();
      if (now + bytes > bodyBudget) {
        return false;
      }
      if (buffered.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  void release(long bytes) {
    buffered.addAndGet(-bytes);
  }

  long buffered() {
    return buffered.get();
  }

  long evicted() {
    return evicted.get();
  }

  long refused() {
    return refused.get();
  }
}
