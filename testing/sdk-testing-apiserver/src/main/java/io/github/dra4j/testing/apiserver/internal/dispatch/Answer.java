package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.fabric8.mockwebserver.http.MockResponse;
import io.github.dra4j.testing.apiserver.internal.watch.WatchStream;
import java.util.Objects;

/**
 * What the dispatcher answers to one request: a complete response, or a watch whose events the
 * HTTP layer streams over a WebSocket or a chunked response.
 */
public sealed interface Answer {

  /**
   * A complete response; it always carries a {@code Content-Type}.
   *
   * @param response the status, headers and body
   */
  record Complete(MockResponse response) implements Answer {

    /**
     * Checks the response.
     *
     * @param response the status, headers and body; not null
     */
    public Complete {
      Objects.requireNonNull(response, "response");
    }
  }

  /**
   * An open watch; the HTTP layer attaches a sink to it, or tells it the client is gone.
   *
   * @param stream the watch
   */
  record Watch(WatchStream stream) implements Answer {

    /**
     * Checks the stream.
     *
     * @param stream the watch; not null
     */
    public Watch {
      Objects.requireNonNull(stream, "stream");
    }
  }
}
