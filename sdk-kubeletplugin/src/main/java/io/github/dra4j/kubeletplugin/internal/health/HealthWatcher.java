package io.github.dra4j.kubeletplugin.internal.health;

import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.internal.server.Refusals;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open device health stream: sends the board's snapshots to its client, never more than one
 * unread.
 *
 * <p>Each snapshot is the complete health of every device, so only the newest matters: a
 * snapshot that arrives while the previous one has not left yet replaces the waiting one instead
 * of queueing behind it. A snapshot goes out only while the stream is ready (grpc-java's {@code
 * isReady}, with a threshold of one byte: nothing of the previous message is still queued in the
 * transport), and the waiting one when it becomes ready again. A client that reads slowly thus
 * gets fewer, newer snapshots, and one that does not read at all costs the plugin one message.
 *
 * <p>A client that has left a snapshot waiting for longer than the stall limit is dropped: the
 * stream is closed with UNAVAILABLE saying why, and the kubelet, which opens its stream again 5 s
 * after one ends, starts over with a fresh snapshot. The check runs whenever a snapshot arrives,
 * at the latest with the board's periodic refresh.
 *
 * <p>Guarded by its monitor: snapshots arrive on the reporting thread or the refresh timer, the
 * ready and cancel callbacks on the call's threads.
 */
final class HealthWatcher {

  private static final Logger LOG = LoggerFactory.getLogger(HealthWatcher.class);

  private final ServerCallStreamObserver<NodeWatchResourcesResponse> stream;
  private final Function<List<DeviceHealth>, NodeWatchResourcesResponse> toResponse;
  private final Duration stallLimit;
  private final LongSupplier nanoTime;
  private final Runnable onDropped;
  private final Runnable onEnd;
  private List<DeviceHealth> waiting;
  private long waitingSinceNanos;
  private long sent;
  private long replaced;
  private boolean ended;
  private Runnable unsubscribe = () -> {};

  /**
   * Prepares the stream; call {@link #open} next, from the call's handler.
   *
   * @param stream the call's observer
   * @param toResponse the wire message of a snapshot
   * @param stallLimit how long a snapshot may wait before the client is dropped
   * @param nanoTime the clock
   * @param onDropped told once if the client is dropped for not reading
   * @param onEnd told once when the stream ends, however: cancelled, dropped, closed
   */
  HealthWatcher(ServerCallStreamObserver<NodeWatchResourcesResponse> stream,
      Function<List<DeviceHealth>, NodeWatchResourcesResponse> toResponse, Duration stallLimit,
      LongSupplier nanoTime, Runnable onDropped, Runnable onEnd) {
    this.stream = stream;
    this.toResponse = toResponse;
    this.stallLimit = stallLimit;
    this.nanoTime = nanoTime;
    this.onDropped = onDropped;
    this.onEnd = onEnd;
  }

  /**
   * Sets the stream's callbacks and subscribes to the board, which sends the current snapshot at
   * once.
   *
   * @param board the health picture
   */
  void open(DeviceHealthBoard board) {
    stream.setOnReadyThreshold(1);
    stream.setOnCancelHandler(this::cancelled);
    stream.setOnCloseHandler(this::closed);
    stream.setOnReadyHandler(this::ready);
    Runnable handle = board.subscribe(this::offer);
    synchronized (this) {
      unsubscribe = handle;
      if (!ended) {
        return;
      }
    }
    handle.run(); // ended while subscribing
  }

  /** A new snapshot: sent now if the stream is ready, else kept as the one waiting. */
  synchronized void offer(List<DeviceHealth> snapshot) {
    if (ended) {
      return;
    }
    if (waiting != null) {
      replaced++;
    } else {
      waitingSinceNanos = nanoTime.getAsLong();
    }
    waiting = snapshot;
    if (!sendIfReady()) {
      dropIfStalled();
    }
  }

  /** The transport took the previous message: the one waiting may go. */
  private synchronized void ready() {
    if (!ended) {
      sendIfReady();
    }
  }

  /** Sends the waiting snapshot if the stream is ready; true if nothing waits any more. */
  private boolean sendIfReady() {
    if (waiting == null) {
      return true;
    }
    if (!stream.isReady()) {
      return false;
    }
    List<DeviceHealth> snapshot = waiting;
    waiting = null;
    try {
      stream.onNext(toResponse.apply(snapshot));
      sent++;
    } catch (RuntimeException e) { // cancelled meanwhile
      end();
      LOG.debug("Device health stream broke: {}", e.toString());
    }
    return true;
  }

  private void dropIfStalled() {
    long waited = nanoTime.getAsLong() - waitingSinceNanos;
    if (waited < stallLimit.toNanos()) {
      return;
    }
    Status status = Status.UNAVAILABLE.withDescription("device health stream dropped: the client"
        + " has left an update unread for " + Duration.ofNanos(waited).toMillis() + " ms, over"
        + " the " + stallLimit.toMillis() + " ms allowed; open the stream again")
        .withCause(Refusals.cause("slow_reader"));
    end();
    try {
      stream.onError(status.asRuntimeException());
    } catch (RuntimeException e) {
      LOG.debug("Could not close the dropped device health stream: {}", e.toString());
    }
    LOG.debug("Dropped a device health stream after {} snapshots sent, {} replaced unread: {}",
        sent, replaced, status.getDescription());
    onDropped.run();
  }

  private void cancelled() {
    synchronized (this) {
      if (ended) {
        return;
      }
      end();
    }
    LOG.debug("Device health stream closed by the client");
  }

  private synchronized void closed() {
    end();
  }

  /** Stops taking snapshots, once; the caller holds the monitor. */
  private void end() {
    if (ended) {
      return;
    }
    ended = true;
    waiting = null;
    unsubscribe.run();
    onEnd.run();
  }
}
