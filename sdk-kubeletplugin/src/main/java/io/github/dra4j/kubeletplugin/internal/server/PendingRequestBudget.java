package io.github.dra4j.kubeletplugin.internal.server;

import io.grpc.Metadata;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the bytes of request messages a server holds while they arrive. grpc-java keeps a
 * message's bytes until the whole message is there, returning flow-control credit as it goes, so
 * the flow-control window does not bound them: a client that sends the start of a large message
 * on many calls, and never the rest, would otherwise make the server hold up to the largest
 * message size times every call it may open.
 *
 * <p>grpc-java reports each part of a message body to a stream's tracers as it is read, and the
 * whole message once it is complete; this tracer adds the parts to one total per server and takes
 * a call's share off again when its message is complete or the call ends. The part that would
 * take the total over the limit fails its call with RESOURCE_EXHAUSTED, the way grpc-java fails a
 * message over the maximum size: the exception thrown here ends the reading of the message, and
 * grpc-java resets the call with that status. A request that arrives whole at once (any the
 * kubelet sends) never holds a part for long. Thread-safe: each tracer is told from its call's
 * transport thread; the total is shared.
 */
final class PendingRequestBudget extends ServerStreamTracer.Factory {

  private final String description;
  private final long max;
  private final Refusals refusals;
  private final AtomicLong pending = new AtomicLong();

  /**
   * Creates the budget.
   *
   * @param description what the log says, e.g. {@code DRA socket /var/lib/...}
   * @param max bytes of partly received messages the server may hold
   * @param refusals counts and logs the calls failed
   */
  PendingRequestBudget(String description, long max, Refusals refusals) {
    this.description = description;
    this.max = max;
    this.refusals = refusals;
  }

  @Override
  public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
    return new Share(fullMethodName);
  }

  /**
   * Bytes held now.
   *
   * @return the total of the messages still arriving
   */
  long pendingBytes() {
    return pending.get();
  }

  /** One call's share of the total. */
  private final class Share extends ServerStreamTracer {
    private final String method;
    private long held;

    Share(String method) {
      this.method = method;
    }

    @Override
    public void inboundWireSize(long bytes) {
      synchronized (this) {
        held += bytes;
      }
      long total = pending.addAndGet(bytes);
      if (total > max) {
        release();
        refusals.refused(() -> description + ": failed a " + method + " call whose request"
            + " would take the requests still arriving over " + max
            + " bytes (ServerLimits.maxPendingRequestBytes)");
        throw Status.RESOURCE_EXHAUSTED.withDescription("the plugin holds " + (total - bytes)
            + " bytes of requests still arriving, and this one would take it over " + max
            + " (ServerLimits.maxPendingRequestBytes); try again")
            .withCause(Refusals.cause("pending_requests")).asRuntimeException();
      }
    }

    @Override
    public void inboundMessageRead(int seqNo, long wireSize, long uncompressedSize) {
      release();
    }

    @Override
    public void streamClosed(Status status) {
      release();
    }

    private void release() {
      long bytes;
      synchronized (this) {
        bytes = held;
        held = 0;
      }
      if (bytes != 0) {
        pending.addAndGet(-bytes);
      }
    }
  }
}
