package io.github.dra4j.testing.apiserver.internal.http;

import io.github.dra4j.testing.apiserver.internal.watch.WatchSink;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes a watch as a chunked HTTP response, the way the real API server answers {@code
 * GET ...?watch=true} without a WebSocket upgrade: status 200, {@code Content-Type:
 * application/json}, then one JSON event per line. Owns the response once the watch is attached;
 * Vert.x accepts the writes from the hub's sender thread.
 */
final class ChunkedWatchSink implements WatchSink {

  private final HttpServerResponse response;

  ChunkedWatchSink(HttpServerResponse response) {
    this.response = response;
  }

  @Override
  public void send(String event) {
    if (!response.ended() && !response.closed()) {
      response.write(event + "\n");
    }
  }

  @Override
  public void close(String reason) {
    if (!response.ended() && !response.closed()) {
      response.end();
    }
  }
}
