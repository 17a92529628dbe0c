package io.github.dra4j.core.thread;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes named daemon threads ({@code <prefix>-1}, {@code <prefix>-2}, ...) so that thread dumps
 * say whose threads they are and a forgotten one never keeps the JVM alive. Thread-safe.
 */
public final class DaemonThreads implements ThreadFactory {

  private final String prefix;
  private final AtomicInteger counter = new AtomicInteger();

  /**
   * Creates the factory.
   *
   * @param prefix the thread name prefix, e.g. {@code dra4j-grpc}
   */
  public DaemonThreads(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public Thread newThread(Runnable runnable) {
    Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
    thread.setDaemon(true);
    return thread;
  }
}
