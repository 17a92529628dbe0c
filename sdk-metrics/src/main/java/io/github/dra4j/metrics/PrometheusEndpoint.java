package io.github.dra4j.metrics;

import io.github.dra4j.core.http.SmallHttpExchange;
import io.github.dra4j.core.http.SmallHttpServer;
import io.github.dra4j.core.logging.LogValues;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a Micrometer {@link PrometheusMeterRegistry} over plain HTTP for Prometheus to scrape:
 * {@code GET <path>} (default {@value #DEFAULT_PATH}) answers in the Prometheus text format 0.0.4,
 * or in OpenMetrics 1.0 when the scraper's {@code Accept} header asks for {@code
 * application/openmetrics-text}, as Prometheus does by default. Other paths get 404, other
 * methods 405. Runs on a small Netty server with one daemon thread: scrapes are rare and short,
 * and connections are read without blocking, so a client that sends part of a request (one byte,
 * say) holds no thread and blocks no other scrape; its connection is closed when its 10 s are
 * up. At most {@value #MAX_CONNECTIONS} connections are open at once (a new one takes the place
 * of the oldest idle one), request bodies are dropped unread, and an {@link Error} on the server
 * or its listening socket closing is fatal (see {@link
 * io.github.dra4j.core.http.FatalErrors}). Start one with {@link
 * #builder(PrometheusMeterRegistry)}; {@link #close()} stops it. Thread-safe.
 */
public final class PrometheusEndpoint implements AutoCloseable {

  /** The path scraped unless {@link Builder#path(String)} says otherwise. */
  public static final String DEFAULT_PATH = "/metrics";

  /** The Prometheus text format's content type. */
  public static final String TEXT_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  /** OpenMetrics' content type. */
  public static final String OPENMETRICS_CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";

  /** The most connections open at once: Prometheus keeps one per target. */
  public static final int MAX_CONNECTIONS = 64;

  private static final Logger LOG = LoggerFactory.getLogger(PrometheusEndpoint.class);

  private final SmallHttpServer server;
  private final String path;

  private PrometheusEndpoint(Builder builder) throws IOException {
    this.path = builder.path;
    PrometheusMeterRegistry registry = builder.registry;
    this.server = SmallHttpServer.builder("dra4j-metrics", new SmallHttpServer.Handler() {
      @Override
      public boolean wantsBody(String method, String path) {
        return false;
      }

      @Override
      public void handle(SmallHttpExchange exchange) {
        serve(exchange, registry);
      }
    })
        .address(builder.address)
        .backlog(16)
        .maxConnections(MAX_CONNECTIONS)
        .maxBodyBytes(64 * 1024)
        .discardBytes(64 * 1024)
        .idleTimeout(java.time.Duration.ofMinutes(5))
        .start();
    LOG.info("metrics served at http://{}:{}{}", builder.address.getHostString(), port(), path);
  }

  /**
   * Starts configuring an endpoint.
   *
   * @param registry the registry to serve
   * @return a builder
   */
  public static Builder builder(PrometheusMeterRegistry registry) {
    return new Builder(registry);
  }

  /**
   * The bound port, useful after asking for port 0.
   *
   * @return the TCP port
   */
  public int port() {
    return server.port();
  }

  /**
   * The path scraped.
   *
   * @return the path, such as {@value #DEFAULT_PATH}
   */
  public String path() {
    return path;
  }

  /** Stops serving; idempotent. */
  @Override
  public void close() {
    server.close();
  }

  private void serve(SmallHttpExchange exchange, PrometheusMeterRegistry registry) {
    if (!exchange.path().equals(path)) {
      exchange.respondText(404, "not found: " + LogValues.line(exchange.path(), 200));
      return;
    }
    String method = exchange.method();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      exchange.respondText(405, "method " + LogValues.line(method, 20)
          + " not allowed, use GET", Map.of("Allow", "GET, HEAD"));
      return;
    }
    String contentType = wantsOpenMetrics(exchange.header("Accept"))
        ? OPENMETRICS_CONTENT_TYPE : TEXT_CONTENT_TYPE;
    ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
    try {
      registry.scrape(body, contentType);
    } catch (IOException e) {
      exchange.respondText(500, "scrape failed: " + e);
      return;
    }
    // For HEAD the server sends the headers, Content-Length included, and no body.
    exchange.respond(200, contentType, body.toByteArray());
  }

  /**
   * Checks a metrics path as {@link Builder#path(String)} does, for options that hold one.
   *
   * @param path the path
   * @return the path
   * @throws IllegalArgumentException {@code metrics path must be ..., got "<path>"}
   */
  public static String checkPath(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/") || path.length() < 2 || path.contains("?")) {
      throw new IllegalArgumentException("metrics path must be an absolute path other than /,"
          + " got \"" + path + "\"");
    }
    return path;
  }

  static boolean wantsOpenMetrics(String accept) {
    return accept != null
        && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text");
  }

  /** Configures an endpoint; not thread-safe. */
  public static final class Builder {

    private final PrometheusMeterRegistry registry;
    private InetSocketAddress address = new InetSocketAddress(0);
    private String path = DEFAULT_PATH;

    private Builder(PrometheusMeterRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Where to listen; default every address, a free port.
     *
     * @param address the address; port 0 picks a free one
     * @return this builder
     */
    public Builder address(InetSocketAddress address) {
      this.address = Objects.requireNonNull(address, "address");
      return this;
    }

    /**
     * The path Prometheus scrapes; default {@value PrometheusEndpoint#DEFAULT_PATH}.
     *
     * @param path an absolute path other than {@code /}
     * @return this builder
     */
    public Builder path(String path) {
      this.path = checkPath(path);
      return this;
    }

    /**
     * Binds the port and starts serving.
     *
     * @return the running endpoint
     * @throws IOException if the port cannot be bound
     */
    public PrometheusEndpoint start() throws IOException {
      return new PrometheusEndpoint(this);
    }
  }
}
