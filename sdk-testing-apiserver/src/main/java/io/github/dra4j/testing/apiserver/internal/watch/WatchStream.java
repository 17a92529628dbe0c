package io.github.dra4j.testing.apiserver.internal.watch;

import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
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
 * One open watch: the WebSocket of one client plus the selection it asked for. Events are turned
 * into messages on the caller's thread and written by the hub's single sender thread, which owns
 * {@link #socket} and {@link #pending}; messages that arrive before the socket opens are kept and
 * flushed in order when it does.
 */
final class WatchStream extends WebSocketListener {

  private final Selection selection;
  private final JsonMapper mapper;
  private final Executor sender;
  private final Consumer<WatchStream> onClose;
  private final List<String> pending = new ArrayList<>();
  private volatile Future<?> timeout;
  private WebSocket socket;
  private boolean closeRequested;
  private volatile boolean closed;

  WatchStream(Selection selection, JsonMapper mapper, Executor sender, Consumer<WatchStream> onClose) {
    this.selection = selection;
    this.mapper = mapper;
    this.sender = sender;
    this.onClose = onClose;
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

  /** Sends a 410 Expired error event and closes, as for a resource version that is too old. */
  void expire(String message) {
    ObjectNode status = mapper.createObjectNode();
    status.put("kind", "Status").put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure").put("message", message).put("reason", "Expired");
    status.put("code", 410);
    send("ERROR", status);
    close(1000, "watch expired");
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
    if (socket == null) {
      pending.add(message);
    } else {
      socket.send(message);
    }
  }

  /** Closes the watch from the server side, after the messages already queued; the client sees the stream end. */
  void close(int code, String reason) {
    run(
        () -> {
          closeRequested = true;
          if (socket != null) {
            socket.close(code, reason);
          }
          markClosed();
        });
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    run(
        () -> {
          socket = webSocket;
          pending.forEach(webSocket::send);
          pending.clear();
          if (closeRequested) {
            webSocket.close(1000, "watch closed");
          }
        });
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    markClosed();
    run(() -> webSocket.close(code, reason));
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    markClosed();
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable failure, Response response) {
    markClosed();
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
