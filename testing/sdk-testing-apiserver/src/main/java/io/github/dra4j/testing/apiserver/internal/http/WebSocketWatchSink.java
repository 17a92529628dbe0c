package io.github.dra4j.testing.apiserver.internal.http;

import io.github.dra4j.testing.apiserver.internal.watch.WatchSink;
import io.vertx.core.http.ServerWebSocket;

/**
 * Writes a watch to a WebSocket, one text message per event, as the fabric8 client expects. Owns
 * the socket once the watch is attached; Vert.x accepts the writes from the hub's sender thread.
 */
final class WebSocketWatchSink implements WatchSink {

  /** The WebSocket close code of a normal end. */
  private static final short NORMAL_CLOSURE = 1000;

  private final ServerWebSocket socket;

  WebSocketWatchSink(ServerWebSocket socket) {
    this.socket = socket;
  }

  @Override
  public void send(String event) {
    if (!socket.isClosed()) {
      socket.writeTextMessage(event);
    }
  }

  @Override
  public void close(String reason) {
    if (!socket.isClosed()) {
      socket.close(NORMAL_CLOSURE, reason);
    }
  }
}
