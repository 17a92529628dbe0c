package io.github.dra4j.kubeletplugin.internal.grpc;

import io.github.dra4j.core.thread.DaemonThreads;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The threads that run a plugin's gRPC handlers ({@code dra4j-grpc-N}): one per call in progress,
 * as the kubelet's calls are few and may each block in the driver for a while, so a call never
 * waits for another's thread.
 *
 * <p>{@value #WARM} thread stays once started, so that a call after a quiet minute does not pay
 * for a new thread; the others end after {@value #IDLE_SECONDS} s idle. At most {@value #MAX}
 * calls run at once; one more is refused with {@link Busy} (a DRA call then with
 * RESOURCE_EXHAUSTED, which the kubelet retries), so that a driver stuck in every call cannot take
 * a thread per call without bound. Each thread hands itself the next call directly (no queue),
 * the one that finished last first. Work given to a pool that is shut down is refused with a
 * plain {@link RejectedExecutionException}.
 */
public final class HandlerPool {

  /** Threads kept however idle. */
  public static final int WARM = 1;

  /** Most calls handled at once. */
  public static final int MAX = 64;

  /** Idle time after which a thread beyond {@link #WARM} ends. */
  public static final long IDLE_SECONDS = 60;

  private HandlerPool() {}

  /**
   * A new pool; its owner shuts it down.
   *
   * @param prefix the thread name prefix, {@code dra4j-grpc}
   * @return the pool
   */
  public static ThreadPoolExecutor create(String prefix) {
    return create(new DaemonThreads(prefix));
  }

  /**
   * A new pool whose threads come from a factory (the plugin's, which makes a JVM error that
   * kills one fatal); its owner shuts it down.
   *
   * @param threads makes the {@code dra4j-grpc-N} threads
   * @return the pool
   */
  public static ThreadPoolExecutor create(ThreadFactory threads) {
    return new ThreadPoolExecutor(WARM, MAX, IDLE_SECONDS, TimeUnit.SECONDS,
        new SynchronousQueue<>(), threads, (task, pool) -> {
          if (pool.isShutdown()) {
            throw new RejectedExecutionException("the handler threads are shut down");
          }
          throw new Busy();
        });
  }

  /** Every handler thread is busy with a call: one more is refused, not queued. */
  public static final class Busy extends RejectedExecutionException {
    private static final long serialVersionUID = 1L;

    Busy() {
      super(MAX + " calls are in progress, the most this plugin runs at once", null);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this; // an answer to a caller, not a bug: no stack trace to take or log
    }
  }
}
