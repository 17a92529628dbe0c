package io.github.dra4j.kubeletplugin.internal.server;

import io.github.dra4j.core.thread.DaemonThreads;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the errors after which a plugin cannot be trusted to serve fatal, instead of leaving a
 * process that holds its sockets and answers nothing: an event loop thread that ends while the
 * plugin runs (its connections are dead with it), any thread of the plugin that dies of an
 * uncaught error, and a {@link VirtualMachineError} (out of memory, heap or direct; a stack
 * overflow; an internal JVM error) caught anywhere in the serving code. The first such error is
 * logged at ERROR and reported as fatal, so the plugin's fatal-error policy applies (close, or
 * close and exit); later ones are only logged. Nothing is reported once the plugin is stopping,
 * when its event loops end on purpose. Owned by one plugin; thread-safe.
 */
public final class FatalErrors {

  private static final Logger LOG = LoggerFactory.getLogger(FatalErrors.class);

  /** How deep a cause chain is searched for a JVM error. */
  private static final int MAX_CAUSES = 16;

  private final BiConsumer<Throwable, String> report;
  private final AtomicBoolean reported = new AtomicBoolean();
  private volatile boolean stopping;

  /**
   * Creates the watch.
   *
   * @param report where a fatal error goes: the plugin's error delivery, which applies the
   *     fatal-error policy to anything that is not a {@code RecoverableException}
   */
  public FatalErrors(BiConsumer<Throwable, String> report) {
    this.report = report;
  }

  /**
   * Whether an error, or one of its causes, is a {@link VirtualMachineError}: the JVM is out of
   * a resource or broken, and code that caught it cannot tell what was left half done.
   *
   * @param error an error caught while serving
   * @return true for a JVM error
   */
  public static boolean isFatal(Throwable error) {
    Throwable cause = error;
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++) {
      if (cause instanceof VirtualMachineError) {
        return true;
      }
      cause = cause.getCause();
    }
    return false;
  }

  /**
   * Reports an error caught while serving if it is a JVM error ({@link #isFatal}); other errors
   * are left to the caller.
   *
   * @param error what was caught
   * @param where what was being done, for the log and the driver's {@code handleError}
   * @return whether the error was fatal
   */
  public boolean offer(Throwable error, String where) {
    if (!isFatal(error)) {
      return false;
    }
    fatal(error, where);
    return true;
  }

  /**
   * Reports an error the plugin cannot serve after.
   *
   * @param error the error
   * @param where what happened, e.g. {@code event loop thread dra4j-gpu.example.com-1 died}
   */
  public void fatal(Throwable error, String where) {
    if (stopping) {
      return;
    }
    boolean first = reported.compareAndSet(false, true);
    try {
      LOG.error("{}: {}; the plugin cannot be trusted to serve any more{}", where, error,
          first ? "" : " (a fatal error was reported before)", error);
    } catch (Throwable logFailed) { // out of memory again: the report below matters more
      System.err.println(where + ": " + error);
    }
    if (first) {
      report.accept(error, where);
    }
  }

  /**
   * Threads whose death by an uncaught error is fatal: the event loops, which the plugin cannot
   * serve without.
   *
   * @param prefix the thread name prefix
   * @return a factory of named daemon threads
   */
  public ThreadFactory essentialThreads(String prefix) {
    DaemonThreads threads = new DaemonThreads(prefix);
    return runnable -> {
      Thread thread = threads.newThread(runnable);
      thread.setUncaughtExceptionHandler(
          (dead, error) -> fatal(error, "event loop thread " + dead.getName() + " died"));
      return thread;
    };
  }

  /**
   * Threads whose death by a JVM error is fatal, and by another error only logged: the handler
   * pool, which replaces a thread that died.
   *
   * @param prefix the thread name prefix
   * @return a factory of named daemon threads
   */
  public ThreadFactory workerThreads(String prefix) {
    DaemonThreads threads = new DaemonThreads(prefix);
    return runnable -> {
      Thread thread = threads.newThread(runnable);
      thread.setUncaughtExceptionHandler((dead, error) -> {
        if (!offer(error, "thread " + dead.getName() + " died")) {
          LOG.error("Thread {} died", dead.getName(), error);
        }
      });
      return thread;
    };
  }

  /**
   * Watches the event loops of a group: one that ends before {@link #stopping()} is fatal.
   *
   * @param group the plugin's event loops
   */
  public void watch(EventLoopGroup group) {
    for (EventExecutor loop : group) {
      loop.terminationFuture().addListener(done -> {
        if (!stopping) {
          fatal(new IllegalStateException("a Netty event loop of the plugin ended while it"
              + " serves; every connection it served is dead"), "event loop ended");
        }
      });
    }
  }

  /**
   * Whether a fatal error was reported.
   *
   * @return true once one was
   */
  public boolean failed() {
    return reported.get();
  }

  /** The plugin is stopping: its event loops end on purpose, and errors are not reported. */
  public void stopping() {
    stopping = true;
  }
}
