package io.github.dra4j.core.http;

import io.netty.handler.codec.http.HttpHeaders;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One complete request to a {@link SmallHttpServer} and the way to answer it. The request is
 * read whole before the handler sees it, within the server's size and time limits; the answer
 * may be given at once or later from any thread, exactly once (later calls are ignored). A
 * request whose connection closed before its answer (its time ran out) takes no answer; {@link
 * #isOpen()} tells. Thread-safe.
 */
public final class SmallHttpExchange {

  private final HttpConnection connection;
  private final String method;
  private final String path;
  private final HttpHeaders headers;
  private final byte[] body;
  private final AtomicBoolean answered = new AtomicBoolean();

  SmallHttpExchange(HttpConnection connection, String method, String path, HttpHeaders headers,
      byte[] body) {
    this.connection = connection;
    this.method = method;
    this.path = path;
    this.headers = headers;
    this.body = body;
  }

  /**
   * The request method.
   *
   * @return such as {@code GET} or {@code POST}
   */
  public String method() {
    return method;
  }

  /**
   * The request's path, without the query.
   *
   * @return such as {@code /metrics}
   */
  public String path() {
    return path;
  }

  /**
   * A request header.
   *
   * @param name the header name, in any case
   * @return its first value, or null
   */
  public String header(String name) {
    return headers.get(name);
  }

  /**
   * The request body; empty when there was none or the handler did not want it.
   *
   * @return the body's bytes (not copied)
   */
  public byte[] body() {
    return body;
  }

  /**
   * Where the request came from.
   *
   * @return the client's address
   */
  public SocketAddress remoteAddress() {
    return connection.remoteAddress();
  }

  /**
   * Whether the connection is still open, so that an answer can still reach the client.
   *
   * @return false once the request's time ran out or the client went away
   */
  public boolean isOpen() {
    return connection.isOpen();
  }

  /**
   * Answers with a body. For a {@code HEAD} request only the headers are sent.
   *
   * @param status the HTTP status
   * @param contentType the body's content type
   * @param body the body
   * @param headers more response headers; may be empty
   * @param closeConnection whether to close the connection after the answer
   */
  public void respond(int status, String contentType, byte[] body, Map<String, String> headers,
      boolean closeConnection) {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
    if (answered.compareAndSet(false, true)) {
      connection.respond(this, status, contentType, body, headers, closeConnection);
    }
  }

  /**
   * Answers with a body and keeps the connection.
   *
   * @param status the HTTP status
   * @param contentType the body's content type
   * @param body the body
   */
  public void respond(int status, String contentType, byte[] body) {
    respond(status, contentType, body, Map.of(), false);
  }

  /**
   * Answers with a plain-text message and a newline: the errors and probes of the small servers.
   *
   * @param status the HTTP status
   * @param message the text
   */
  public void respondText(int status, String message) {
    respondText(status, message, Map.of());
  }

  /**
   * Answers with a plain-text message, a newline and more headers.
   *
   * @param status the HTTP status
   * @param message the text
   * @param headers more response headers, such as {@code Allow}
   */
  public void respondText(int status, String message, Map<String, String> headers) {
    respond(status, SmallHttpServer.TEXT, (message + "\n").getBytes(StandardCharsets.UTF_8),
        headers, false);
  }

  boolean answered() {
    return answered.get();
  }
}
