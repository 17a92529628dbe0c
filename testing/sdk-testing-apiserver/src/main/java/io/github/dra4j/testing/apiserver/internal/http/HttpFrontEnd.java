package io.github.dra4j.testing.apiserver.internal.http;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.github.dra4j.testing.apiserver.internal.dispatch.AcceptHeader;
import io.github.dra4j.testing.apiserver.internal.dispatch.Answer;
import io.github.dra4j.testing.apiserver.internal.dispatch.ApiError;
import io.github.dra4j.testing.apiserver.internal.dispatch.InMemoryDispatcher;
import io.github.dra4j.testing.apiserver.internal.watch.WatchStream;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The HTTP server of the in-memory API server, on Vert.x. It reads each request whole, hands it
 * to the {@link InMemoryDispatcher} and writes the answer; a watch is served over a WebSocket if
 * the request asks for an upgrade (the fabric8 client) and otherwise as a chunked response of
 * newline-delimited JSON events (client-go, kubectl, curl). Requests with a method the API does not
 * use answer 405 as a {@code Status}. A request an injected hang holds is read and left without
 * an answer; it is answered on its event loop when the hang is cleared, and dropped with its
 * connection when the server closes.
 *
 * <p>Owns its Vert.x instance and server; {@link #start} and {@link #close} are synchronized,
 * requests are handled on Vert.x event loops.
 */
public final class HttpFrontEnd implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(HttpFrontEnd.class);
  private static final Set<HttpMethod> API_METHODS = Set.of(
      HttpMethod.GET, HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);
  private static final long START_STOP_SECONDS = 30;

  private final InMemoryDispatcher dispatcher;
  private final JsonMapper mapper;
  private final Vertx vertx;
  private HttpServer server;

  /**
   * Creates the HTTP layer (not yet listening).
   *
   * @param dispatcher answers the requests
   * @param mapper JSON mapper for the errors this layer writes itself
   */
  public HttpFrontEnd(InMemoryDispatcher dispatcher, JsonMapper mapper) {
    this.dispatcher = dispatcher;
    this.mapper = mapper;
    this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setWorkerPoolSize(1));
  }

  /**
   * Starts listening.
   *
   * @param address the address to bind, e.g. the loopback address
   * @param port the TCP port, 0 for a free one
   * @return the port listened on
   * @throws IllegalStateException if already started, or if the port cannot be bound
   */
  public synchronized int start(InetAddress address, int port) {
    if (server != null) {
      throw new IllegalStateException("HTTP layer already started");
    }
    HttpServerOptions options = new HttpServerOptions()
        .setHost(address.getHostAddress())
        .setPort(port)
        .setHandle100ContinueAutomatically(true);
    HttpServer created = vertx.createHttpServer(options).requestHandler(this::handle);
    await(created.listen(), "listen on " + address.getHostAddress() + ":" + port);
    server = created;
    return created.actualPort();
  }

  private void handle(HttpServerRequest request) {
    HttpMethod method = HttpMethod.fromVertx(request.method());
    if (method == null || !API_METHODS.contains(method)) {
      write(request.response(), new ApiError(405, "MethodNotAllowed",
          "the server does not allow method \"" + request.method() + "\" on this resource")
          .toResponse(mapper));
      return;
    }
    if (isUpgrade(request)) {
      serve(request, recorded(request, method, null));
      return;
    }
    request.body()
        .onSuccess(body -> serve(request, recorded(request, method, body)))
        .onFailure(e -> LOG.debug("Request body of {} {} lost", method, request.uri(), e));
  }

  /**
   * Answers a request that has been read, unless an injected hang holds it: then it is answered
   * on its event loop once the hang is cleared, if its client is still there.
   */
  private void serve(HttpServerRequest request, RecordedRequest recorded) {
    Context context = Vertx.currentContext();
    Runnable late = () -> context.runOnContext(v -> answerLate(request, recorded));
    if (!dispatcher.holdIfHung(recorded, late)) {
      answer(request, recorded);
    } else if (isUpgrade(request)) {
      // Vert.x reads a request whose handler returns without pausing it, and a request read
      // can no longer be upgraded to a WebSocket; the late answer runs after this returns.
      request.pause();
    }
  }

  private void answerLate(HttpServerRequest request, RecordedRequest recorded) {
    if (request.response().closed() || request.response().ended()) {
      LOG.debug("Held request {} {} was given up by its client", recorded.getMethod(),
          recorded.getPath());
      return;
    }
    try {
      answer(request, recorded);
    } catch (RuntimeException e) {
      LOG.debug("Held request {} {} could not be answered: {}", recorded.getMethod(),
          recorded.getPath(), e.toString());
    }
  }

  private static boolean isUpgrade(HttpServerRequest request) {
    return InMemoryDispatcher.isWebSocketUpgrade(request.getHeader("Upgrade"));
  }

  private static RecordedRequest recorded(HttpServerRequest request, HttpMethod method,
      Buffer body) {
    return new RecordedRequest(
        request.version().alpnName().toUpperCase(Locale.ROOT),
        method,
        request.uri(),
        Headers.builder().addAll(request.headers()).build(),
        new io.fabric8.mockwebserver.http.Buffer(body == null ? null : body.getBytes()));
  }

  private void answer(HttpServerRequest request, RecordedRequest recorded) {
    Answer answer = dispatcher.handle(recorded);
    if (answer instanceof Answer.Complete complete) {
      if (isUpgrade(request) && complete.response().code() < 300) {
        write(request.response(), new ApiError(400, "BadRequest",
            "a WebSocket upgrade is only served for watches").toResponse(mapper));
      } else {
        write(request.response(), complete.response());
      }
    } else {
      WatchStream stream = ((Answer.Watch) answer).stream();
      if (isUpgrade(request)) {
        request.toWebSocket()
            .onSuccess(socket -> {
              socket.closeHandler(v -> stream.clientClosed());
              socket.exceptionHandler(e -> stream.clientClosed());
              stream.attach(new WebSocketWatchSink(socket));
            })
            .onFailure(e -> stream.clientClosed());
      } else {
        HttpServerResponse response = request.response();
        response.setStatusCode(200)
            .setChunked(true)
            .putHeader("Content-Type", AcceptHeader.JSON)
            .putHeader("Cache-Control", "no-cache, private");
        response.closeHandler(v -> stream.clientClosed());
        response.exceptionHandler(e -> stream.clientClosed());
        response.writeHead();
        stream.attach(new ChunkedWatchSink(response));
      }
    }
  }

  private static void write(HttpServerResponse response, MockResponse answer) {
    response.setStatusCode(answer.code());
    answer.getHeaders().toMultimap().forEach(response::putHeader);
    io.fabric8.mockwebserver.http.Buffer body = answer.getBody();
    if (body != null && body.size() > 0) {
      response.end(Buffer.buffer(body.getBytes()));
    } else {
      response.end();
    }
  }

  private static <T> T await(Future<T> future, String what) {
    try {
      return future.toCompletionStage().toCompletableFuture()
          .get(START_STOP_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("in-memory API server could not " + what + ": "
          + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("in-memory API server could not " + what + " within "
          + START_STOP_SECONDS + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while trying to " + what, e);
    }
  }

  /** Stops listening, drops open connections and stops Vert.x. Idempotent. */
  @Override
  public synchronized void close() {
    try {
      if (server != null) {
        await(server.close(), "stop listening");
      }
    } finally {
      server = null;
      try {
        await(vertx.close(), "stop Vert.x");
      } catch (IllegalStateException e) {
        LOG.debug("Vert.x did not stop cleanly", e);
      }
    }
  }
}
