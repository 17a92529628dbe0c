package io.github.dra4j.testing.apiserver.internal.watch;

/**
 * Where a {@link WatchStream} writes its events: a WebSocket (as the fabric8 client watches) or a
 * chunked HTTP response (as client-go and kubectl watch). The stream calls a sink only from the
 * hub's sender thread, one call at a time; the sink reports a client that went away through
 * {@link WatchStream#clientClosed()}.
 */
public interface WatchSink {

  /**
   * Writes one watch event.
   *
   * @param event the event as one line of JSON, {@code {"type":...,"object":{...}}}, without a
   *     line break
   */
  void send(String event);

  /**
   * Ends the stream from the server side, after the events already sent.
   *
   * @param reason why, for a WebSocket close frame; a chunked response just ends
   */
  void close(String reason);
}
