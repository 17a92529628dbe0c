package io.github.dra4j.testing.apiserver.internal.watch;

import io.github.dra4j.testing.apiserver.internal.selection.Selection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One open watch: the selection a client asked for and the {@link WatchSink} its events go to.
 * Events are turned into messages on the caller's thread and written by the hub's single sender
 * thread, which owns {@link #sink}, {@link #pending} and {@link #closeRequested}; messages that
 * arrive before the sink is attached (the WebSocket handshake or the response headers are still
 * on their way) are kept and flushed in order when it is.
 */
public final class WatchStream {

  private final Selection selection;
  private final JsonMapper mapper;
  private final Executor sender;
  private final Consumer<WatchStream> onClose;
  private final List<String> pending = new ArrayList<>();
  private volatile Future<?> timeout;
  private WatchSink sink;
  private String closeReason;
  private boolean closeRequested;
  private volatile boolean closed;

  WatchStream(Selection selection, JsonMapper mapper, Executor sender,
      Consumer<WatchStream> onClose) {
    this.selection = selection;
    this.mapper = mapper;
    this.sender = sender;
    this.onClose = onClose;
  }

  /**
   * Connects the stream to where its events go and sends what was queued before. Call once, when
   * the WebSocket is open or the chunked response has started.
   *
   * @param target the sink; called only from the hub's sender thread from now on
   */
  public void attach(WatchSink target) {
    run(
        () -> {
          if (sink != null) {
            throw new IllegalStateException("watch stream already has a sink");
          }
          sink = target;
          pending.forEach(target::send);
          pending.clear();
          if (closeRequested) {
            target.close(closeReason);
          }
        });
  }

  /** Tells the stream that its client went away (connection closed or failed); idempotent. */
  public void clientClosed() {
    markClosed();
  }

  /**
   * Sends the event if it concerns this watch, translating it the way the real API server does
   * for selections: an object that starts matching is ADDED, one that stops matching is DELETED.
   */
  void offer(StoredEvent event) {
    if (!event.resource().equals(selection.resource().gvr())) {
      return;
    }
    boolean matchedBefore = selection.matches(event.previous());
    boolean matchesNow = selection.matches(event.current());
    if (matchedBefore && matchesNow) {
      send("MODIFIED", event.current());
    } else if (matchesNow) {
      send("ADDED", event.current());
    } else if (matchedBefore) {
      send("DELETED", withResourceVersion(event.previous(), event.resourceVersion()));
    }
  }

  private JsonNode withResourceVersion(JsonNode object, long resourceVersion) {
    String current = object.path("metadata").path("resourceVersion").asString("");
    if (current.equals(Long.toString(resourceVersion))) {
      return object;
    }
    ObjectNode copy = (ObjectNode) object.deepCopy();
    copy.withObjectProperty("metadata").put("resourceVersion", Long.toString(resourceVersion));
    return copy;
  }

  /** Sends an ADDED event for an object present when the watch started. */
  void sendInitial(JsonNode object) {
    send("ADDED", object);
  }

  /**
   * Sends the bookmark that ends the initial events of a {@code sendInitialEvents=true} watch: an
   * object of the watched kind with only a resource version and the {@code
   * k8s.io/initial-events-end} annotation.
   */
  void sendInitialEventsEnd(long resourceVersion) {
    ObjectNode bookmark = mapper.createObjectNode();
    String kind = selection.resource().kind();
    bookmark.put("kind", kind == null ? "Unknown" : kind);
    bookmark.put("apiVersion", selection.resource().gvr().groupVersion());
    ObjectNode metadata = bookmark.putObject("metadata");
    metadata.put("resourceVersion", Long.toString(resourceVersion));
    metadata.putObject("annotations").put("k8s.io/initial-events-end", "true");
    send("BOOKMARK", bookmark);
  }

  /** Sends a 410 Expired error event and closes, as for a resource version that is too old. */
  void expire(String message) {
    ObjectNode status = mapper.createObjectNode();
    status.put("kind", "Status").put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure").put("message", message).put("reason", "Expired");
    status.put("code", 410);
    send("ERROR", status);
    close("watch expired");
  }

  private void send(String type, JsonNode object) {
    ObjectNode event = mapper.createObjectNode();
    event.put("type", type);
    event.set("object", object);
    String message = mapper.writeValueAsString(event);
    run(() -> deliver(message));
  }

  private void deliver(String message) {
    if (closed || closeRequested) {
      return;
    }
    if (sink == null) {
      pending.add(message);
    } else {
      sink.send(message);
    }
  }

  /**
   * Closes the watch from the server side, after the messages already queued; the client sees
   * the stream end.
   */
  void close(String reason) {
    run(
        () -> {
          if (closeRequested) {
            return;
          }
          closeRequested = true;
          closeReason = reason;
          if (sink != null) {
            sink.close(reason);
          }
          markClosed();
        });
  }

  private void run(Runnable task) {
    try {
      sender.execute(task);
    } catch (RejectedExecutionException e) {
      closed = true; // the hub has shut down; nothing is sent any more
    }
  }

  /** Cancels the given timeout task when the watch ends. */
  void cancelOnClose(Future<?> timeoutTask) {
    this.timeout = timeoutTask;
    if (closed) {
      timeoutTask.cancel(false);
    }
  }

  private void markClosed() {
    if (!closed) {
      closed = true;
      Future<?> pendingTimeout = timeout;
      if (pendingTimeout != null) {
        pendingTimeout.cancel(false);
      }
      onClose.accept(this);
    }
  }
}
