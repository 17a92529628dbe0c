package io.github.dra4j.kubeletplugin.internal.runtime;

import io.github.dra4j.kubeletplugin.ShutdownOptions;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a plugin ends, as its {@link ShutdownOptions} say: the JVM shutdown hook that closes it on
 * SIGTERM or SIGINT, the threads waiting for it to close, and the grace period they get to finish
 * what follows before the JVM exits. Owned by one plugin; thread-safe.
 */
public final class PluginShutdown {

  private static final Logger LOG = LoggerFactory.getLogger(PluginShutdown.class);

  private final String driverName;
  private final ShutdownOptions options;
  /** Counted down when the plugin's close has finished, not when it starts. */
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
  private volatile List<Thread> released = List.of();
  private volatile Thread hook;

  /**
   * The shutdown of one plugin.
   *
   * @param driverName names the threads
   * @param options the shutdown group
   */
  public PluginShutdown(String driverName, ShutdownOptions options) {
    this.driverName = driverName;
    this.options = options;
  }

  /**
   * Installs the shutdown hook, when the options want one: it closes the plugin, then gives the
   * threads that close released from {@link #awaitTermination()} the grace period to finish what
   * follows it, because the JVM halts as soon as all shutdown hooks are done.
   *
   * @param close closes the plugin
   */
  public void installHook(Runnable close) {
    if (!options.closeOnShutdown()) {
      return;
    }
    hook = new Thread(() -> {
      close.run();
      awaitReleasedThreads();
    }, "dra4j-shutdown-" + driverName);
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Blocks until the plugin has closed.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitTermination() throws InterruptedException {
    Thread self = Thread.currentThread();
    waiting.add(self);
    try {
      terminated.await();
    } finally {
      waiting.remove(self);
    }
  }

  /** The plugin starts closing: the threads waiting now are the ones the grace period is for. */
  public void closing() {
    released = List.copyOf(waiting);
  }

  /** The plugin has closed: the hook is removed (unless it runs) and the waiting threads go on. */
  public void closed() {
    Thread installed = hook;
    if (installed != null && Thread.currentThread() != installed) {
      try {
        Runtime.getRuntime().removeShutdownHook(installed);
      } catch (IllegalStateException alreadyShuttingDown) {
        // The JVM is exiting; the hook runs or has run and finds the plugin closed.
      }
    }
    terminated.countDown();
  }

  /**
   * The end of {@code FatalErrorPolicy.EXIT}, started before the plugin closes: a non-daemon
   * thread, so the JVM cannot end with status 0 when {@code main} returns first. It waits until
   * the plugin has closed, then for the threads released from {@link #awaitTermination()} (at most
   * the grace period), then exits with status 1.
   */
  public void exitAfterGracePeriod() {
    Thread exit = new Thread(() -> {
      try {
        terminated.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      awaitReleasedThreads();
      Runtime.getRuntime().exit(1);
    }, "dra4j-exit-" + driverName);
    exit.setDaemon(false);
    exit.start();
  }

  private void awaitReleasedThreads() {
    long deadline = System.nanoTime() + options.gracePeriod().toNanos();
    for (Thread thread : released) {
      long left = deadline - System.nanoTime();
      try {
        if (left > 0) {
          thread.join(TimeUnit.NANOSECONDS.toMillis(left) + 1);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (thread.isAlive()) {
        LOG.warn("Thread {} still runs {} after the plugin closed; the JVM exits now",
            thread.getName(), options.gracePeriod());
      }
    }
  }
}
