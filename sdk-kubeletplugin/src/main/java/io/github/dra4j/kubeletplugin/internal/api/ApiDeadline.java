package io.github.dra4j.kubeletplugin.internal.api;

import io.grpc.Context;
import io.grpc.Deadline;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How long the API requests of one operation may take, and whether the operation was called off:
 * for a kubelet call, the gRPC deadline the kubelet sent minus a margin to send the answer in,
 * and the call's cancellation; otherwise a fixed span from now. Every wait of {@link
 * ApiRequests} ends when the deadline passes or the call is cancelled, whatever the API server
 * does.
 *
 * <p>A kubelet call's deadline is made and closed on the thread that runs the call (it listens to
 * the call's cancellation until closed); a fixed one ({@link #after}) may be made on one thread
 * and waited on by another. Thread-safe.
 */
public final class ApiDeadline implements AutoCloseable {

  /**
   * The span of a claim read outside a kubelet call, or in a call without a deadline: the
   * kubelet's own deadline for its DRA calls.
   */
  public static final Duration WITHOUT_CALL_DEADLINE = Duration.ofSeconds(45);

  /** The most of a call's deadline kept back to send the answer in. */
  static final Duration MAX_MARGIN = Duration.ofSeconds(1);

  /**
   * The least kept back (unless that is over half the call's time): a twentieth of a short
   * deadline, 100 ms of 2 s, is less than a loaded node needs to log, count and send an answer.
   */
  static final Duration MIN_MARGIN = Duration.ofMillis(250);

  private final Context context;
  private final long endNanos;
  private final long spanNanos;
  private final String source;
  private final CompletableFuture<Void> cancelled = new CompletableFuture<>();
  private final Context.CancellationListener listener = ignored -> cancelled.complete(null);

  private ApiDeadline(Context context, long spanNanos, String source) {
    this.context = context;
    this.spanNanos = Math.max(0, spanNanos);
    this.endNanos = System.nanoTime() + this.spanNanos;
    this.source = source;
    context.addListener(listener, Runnable::run); // does nothing for a context never cancelled
    if (context.isCancelled()) {
      cancelled.complete(null);
    }
  }

  /**
   * The deadline of the gRPC call running on this thread, less a twentieth of it (at least 250
   * ms unless that is over half of it, at most a second) to answer in; {@link #WITHOUT_CALL_DEADLINE} from now outside a call or for a call
   * without a deadline.
   *
   * @return the deadline, to be closed by the caller
   */
  public static ApiDeadline ofCurrentCall() {
    Context context = Context.current();
    Deadline deadline = context.getDeadline();
    if (deadline == null) {
      return new ApiDeadline(context, WITHOUT_CALL_DEADLINE.toNanos(),
          "the plugin's bound for a claim read");
    }
    long left = deadline.timeRemaining(TimeUnit.NANOSECONDS);
    long positive = Math.max(0, left);
    long margin = Math.min(positive / 2,
        Math.min(MAX_MARGIN.toNanos(), Math.max(MIN_MARGIN.toNanos(), positive / 20)));
    return new ApiDeadline(context, left - margin, "the time the kubelet gave the call");
  }

  /**
   * A fixed span from now, not tied to any call.
   *
   * @param span how long the operation may take
   * @param source what sets the span, for messages, such as {@code option ApiServerOptions.timeout}
   * @return the deadline, to be closed by the caller
   */
  public static ApiDeadline after(Duration span, String source) {
    return new ApiDeadline(Context.ROOT, span.toNanos(), source);
  }

  /**
   * The time left.
   *
   * @return nanoseconds, zero or less once passed
   */
  public long remainingNanos() {
    return endNanos - System.nanoTime();
  }

  /**
   * Whether the kubelet cancelled the call (or closed its connection).
   *
   * @return true once cancelled
   */
  public boolean isCancelled() {
    return cancelled.isDone();
  }

  /**
   * The whole span, for messages: {@code 44.0 s (the time the kubelet gave the call)}.
   *
   * @return a readable span and where it comes from
   */
  public String describe() {
    return String.format(Locale.ROOT, "%.1f s (%s)", spanNanos / 1e9, source);
  }

  /**
   * Waits for an answer until the deadline or the call's cancellation, whichever comes first.
   *
   * @param answer the pending answer; cancelled when the wait ends without it
   * @param <T> the answer's type
   * @return the answer
   * @throws ExecutionException if the answer failed
   * @throws Stopped if the deadline passed or the call was cancelled first
   * @throws InterruptedException if the thread was interrupted
   */
  public <T> T await(CompletableFuture<T> answer)
      throws ExecutionException, Stopped, InterruptedException {
    waitFor(answer, remainingNanos());
    if (!answer.isDone()) {
      answer.cancel(false);
      throw stopped();
    }
    return answer.get();
  }

  /**
   * Pauses before a retry; ends early if the call is cancelled.
   *
   * @param nanos how long
   * @throws Stopped if the call was cancelled meanwhile
   * @throws InterruptedException if the thread was interrupted
   */
  public void pause(long nanos) throws Stopped, InterruptedException {
    try {
      cancelled.get(nanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException elapsed) {
      return;
    } catch (ExecutionException impossible) {
      throw new IllegalStateException(impossible);
    }
    throw stopped();
  }

  private void waitFor(CompletableFuture<?> answer, long nanos) throws InterruptedException {
    if (nanos <= 0 || isCancelled()) {
      return;
    }
    try {
      CompletableFuture.anyOf(answer, cancelled).get(nanos, TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException
        | java.util.concurrent.CancellationException ended) {
      // the answer failed (read by the caller), or time is up
    }
  }

  private Stopped stopped() {
    return new Stopped(isCancelled());
  }

  /** Stops listening to the call's cancellation. */
  @Override
  public void close() {
    context.removeListener(listener);
  }

  /** The wait ended before the answer: the deadline passed or the call was cancelled. */
  public static final class Stopped extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean cancelled;

    Stopped(boolean cancelled) {
      super(cancelled ? "the kubelet cancelled the call" : "deadline passed", null, false, false);
      this.cancelled = cancelled;
    }

    /**
     * Whether the call was cancelled rather than out of time.
     *
     * @return true for a cancellation
     */
    public boolean cancelled() {
      return cancelled;
    }
  }
}
