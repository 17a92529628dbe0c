package io.github.dra4j.testing.kubelet;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names the fake kubelet's threads and makes them daemons, so a forgotten kubelet never blocks JVM
 * exit.
 */
final class DaemonThreads {

  private DaemonThreads() {}

  static ThreadFactory factory(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
