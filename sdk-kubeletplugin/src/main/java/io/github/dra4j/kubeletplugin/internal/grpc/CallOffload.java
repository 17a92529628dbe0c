package io.github.dra4j.kubeletplugin.internal.grpc;

import io.github.dra4j.kubeletplugin.internal.server.FatalErrors;
import io.grpc.Context;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a call's handler work off the Netty event loop with one thread hand-over per call, for a
 * server whose own executor is {@code directExecutor()}.
 *
 * <p>grpc-java with an executor of its own hands a unary call to that executor up to three times
 * (the call's start, its message and half-close, its completion), and the start's {@code
 * request(n)} goes back to the event loop once more before the message is delivered. This
 * interceptor, the outermost one, lets the event loop do the quick steps itself and hands the rest
 * to the executor in one go, keeping grpc-java's guarantees: a call's callbacks run one at a time,
 * in order, each with the call's gRPC {@link Context} (deadline, cancellation) attached.
 *
 * <ul>
 *   <li>On the event loop, always: parsing the request (grpc-java, before {@code onMessage}).
 *   <li>On the event loop when {@code lightStart} is set: the start of the call through the
 *       interceptors behind this one and the service's handler ({@code interceptCall}, {@code
 *       startCall}), and the listener's {@code onReady} and {@code onComplete} when no other
 *       callback of the call is queued or running. The plugin sets it only when every interceptor
 *       is its own and every service a {@code ServerCalls} one of its own, none of which blocks in
 *       those steps; a user interceptor may block anywhere, so with one everything is handed over.
 *   <li>On the executor: {@code onMessage}, {@code onHalfClose} (where a unary handler, and so
 *       the driver, runs) and {@code onCancel}; all of them when {@code lightStart} is off. A
 *       unary call's message and half-close arrive together and go over in one hand-over.
 * </ul>
 *
 * <p>A callback that throws on the executor closes the call with UNKNOWN, as grpc-java does for
 * an exception in application code; a JVM error ({@link FatalErrors#isFatal}: out of memory, a
 * stack overflow) is also reported as fatal, so that the plugin's fatal-error policy applies
 * rather than a plugin that goes on half broken. One that throws on the event loop is left to
 * grpc-java. If the executor refuses work, the call is closed at once, without a stack trace:
 * with RESOURCE_EXHAUSTED and the executor's reason when every handler thread is busy ({@link
 * HandlerPool.Busy}), with UNAVAILABLE when the executor is shut down. A call closed here is
 * closed beneath the interceptors behind this one; {@link #closedBeneath} tells them its status.
 * Thread-safe; one instance per server.
 */
public final class CallOffload implements ServerInterceptor {

  private static final Logger LOG = LoggerFactory.getLogger(CallOffload.class);

  private final Executor executor;
  private final boolean lightStart;
  private final FatalErrors fatal;

  /**
   * Creates the interceptor.
   *
   * @param executor runs the handed-over callbacks (borrowed, never shut down here)
   * @param lightStart whether the interceptors behind this one and the services start calls and
   *     complete them without blocking (see the class comment)
   * @param fatal gets the JVM errors a callback throws
   */
  public CallOffload(Executor executor, boolean lightStart, FatalErrors fatal) {
    this.executor = Objects.requireNonNull(executor, "executor");
    this.lightStart = lightStart;
    this.fatal = Objects.requireNonNull(fatal, "fatal");
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    ClosableCall<Q, R> closable = new ClosableCall<>(call);
    OffloadedCall<Q, R> offloaded = new OffloadedCall<>(closable, Context.current());
    if (lightStart) {
      offloaded.listener = next.startCall(closable, headers);
    } else {
      offloaded.handOver(() -> offloaded.listener = next.startCall(closable, headers));
    }
    return offloaded;
  }

  /**
   * The status a call was closed with here (refused, or failed in application code), for an
   * interceptor behind this one that sees the call complete without having closed it.
   *
   * @param call the call as this interceptor passed it on
   * @return the status, or null if the call was not closed here
   */
  public static Status closedBeneath(ServerCall<?, ?> call) {
    return call instanceof ClosableCall<?, ?> closable ? closable.closedWith : null;
  }

  /** The call passed on to the interceptors behind this one; remembers a close made here. */
  private static final class ClosableCall<Q, R>
      extends
        ForwardingServerCall.SimpleForwardingServerCall<Q, R> {
    private volatile Status closedWith;

    ClosableCall(ServerCall<Q, R> call) {
      super(call);
    }

    /** Closes the call beneath the interceptors that wrap this one. */
    void closeBeneath(Status status) {
      closedWith = status;
      delegate().close(status, new Metadata());
    }
  }

  /**
   * The listener the event loop calls: runs or queues each callback for the real listener. The
   * queue and {@code draining} are guarded by the object's monitor; {@code listener} is written
   * before any queued callback reads it (by the first queued task, or on the event loop before
   * anything is queued) and only read by whoever drains.
   */
  private final class OffloadedCall<Q, R> extends ServerCall.Listener<Q> implements Runnable {
    private final ClosableCall<Q, R> call;
    private final Context context;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>(4);
    private boolean draining;
    private ServerCall.Listener<Q> listener;

    OffloadedCall(ClosableCall<Q, R> call, Context context) {
      this.call = call;
      this.context = context;
    }

    @Override
    public void onMessage(Q message) {
      handOver(() -> listener.onMessage(message));
    }

    @Override
    public void onHalfClose() {
      handOver(() -> listener.onHalfClose());
    }

    @Override
    public void onCancel() {
      handOver(() -> {
        if (listener != null) { // null if the call was refused before it started
          listener.onCancel();
        }
      });
    }

    @Override
    public void onComplete() {
      runHereIfIdle(() -> {
        if (listener != null) {
          listener.onComplete();
        }
      });
    }

    @Override
    public void onReady() {
      runHereIfIdle(() -> {
        if (listener != null) {
          listener.onReady();
        }
      });
    }

    /** Queues a callback for the executor, starting a drain unless one is due or running. */
    void handOver(Runnable task) {
      synchronized (this) {
        queue.addLast(task);
        if (draining) {
          return;
        }
        draining = true;
      }
      startDrain();
    }

    /**
     * Runs a light callback on the calling thread (the event loop, with the call's context
     * attached) when nothing of the call is queued or running, else queues it behind the rest.
     */
    private void runHereIfIdle(Runnable task) {
      if (!lightStart) {
        handOver(task);
        return;
      }
      synchronized (this) {
        if (draining) {
          queue.addLast(task);
          return;
        }
        draining = true;
      }
      try {
        task.run();
      } finally {
        // What queued meanwhile drains on the executor; a failure of the task itself reaches
        // gRPC, which closes the call.
        if (!idleAfterRun()) {
          startDrain();
        }
      }
    }

    /** Ends the run on the calling thread: true if nothing queued meanwhile, else false. */
    private synchronized boolean idleAfterRun() {
      if (queue.isEmpty()) {
        draining = false;
        return true;
      }
      return false;
    }

    private void startDrain() {
      try {
        executor.execute(this);
      } catch (RejectedExecutionException e) {
        synchronized (this) {
          queue.clear();
          draining = false;
        }
        Status refusal = e instanceof HandlerPool.Busy
            ? Status.RESOURCE_EXHAUSTED.withDescription(e.getMessage())
            : Status.UNAVAILABLE.withDescription("server is shutting down");
        closeQuietly(refusal);
      }
    }

    /** Drains the queue on the executor, in the call's context. */
    @Override
    public void run() {
      Context previous = context.attach();
      try {
        while (true) {
          Runnable task;
          synchronized (this) {
            task = queue.pollFirst();
            if (task == null) {
              draining = false;
              return;
            }
          }
          try {
            task.run();
          } catch (Throwable t) {
            String method = call.getMethodDescriptor().getFullMethodName();
            boolean jvmError = FatalErrors.isFatal(t);
            if (jvmError) {
              LOG.debug("Closing the {} call after a fatal error", method);
            } else if (context.isCancelled()) {
              // The client cancelled or went away while the handler ran: not the handler's bug.
              LOG.debug("Handler of {} failed after the client ended the call: {}", method,
                  t.toString());
            } else {
              LOG.error("Application error processing {}", method, t);
            }
            // The call is answered first: a fatal error then closes the plugin, and its server.
            closeQuietly(Status.UNKNOWN.withDescription("Application error processing RPC")
                .withCause(t));
            if (jvmError) {
              fatal.offer(t, "handling a " + method + " call");
            }
          }
        }
      } finally {
        context.detach(previous);
      }
    }

    private void closeQuietly(Status status) {
      try {
        call.closeBeneath(status);
      } catch (RuntimeException alreadyClosed) {
        LOG.debug("Could not close call {}: {}", call.getMethodDescriptor().getFullMethodName(),
            alreadyClosed.toString());
      }
    }
  }
}
