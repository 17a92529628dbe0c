package io.github.dra4j.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.dra4j.core.http.JdkHttpServers;
import io.github.dra4j.core.thread.DaemonThreads;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a Micrometer {@link PrometheusMeterRegistry} over plain HTTP for Prometheus to scrape:
 * {@code GET <path>} (default {@value #DEFAULT_PATH}) answers in the Prometheus text format 0.0.4,
 * or in OpenMetrics 1.0 when the scraper's {@code Accept} header asks for {@code
 * application/openmetrics-text}, as Prometheus does by default. Other paths get 404, other
 * methods 405. Runs on the JDK's own HTTP server with one daemon thread: scrapes are rare and
 * short. Start one with {@link #builder(PrometheusMeterRegistry)}; {@link #close()} stops it.
 * Thread-safe.
 */
public final class PrometheusEndpoint implements AutoCloseable {

  /** The path scraped unless {@link Builder#path(String)} says otherwise. */
  public static final String DEFAULT_PATH = "/metrics";

  /** The Prometheus text format's content type. */
  public static final String TEXT_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  /** OpenMetrics' content type. */
  public static final String OPENMETRICS_CONTENT_TYPE =
      "application/openmetrics-text; version=1.0.0; charset=utf-8";

  private static final Logger LOG = LoggerFactory.getLogger(PrometheusEndpoint.class);

  private final HttpServer server;
  private final ExecutorService executor;
  private final String path;

  private PrometheusEndpoint(Builder builder) throws IOException {
    this.path = builder.path;
    JdkHttpServers.enableNoDelay();
    this.executor = Executors.newSingleThreadExecutor(
        new DaemonThreads("dra4j-metrics"));
    try {
      this.server = HttpServer.create(builder.address, 16);
      server.setExecutor(executor);
      PrometheusMeterRegistry registry = builder.registry;
      server.createContext("/", exchange -> serve(exchange, registry));
      server.start();
    } catch (IOException | RuntimeException e) {
      executor.shutdownNow();
      throw e;
    }
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
    return server.getAddress().getPort();
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
    server.stop(0);
    executor.shutdownNow();
  }

  private void serve(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
    try (exchange) {
      if (!exchange.getRequestURI().getPath().equals(path)) {
        JdkHttpServers.sendText(exchange, 404, "not found: " + exchange.getRequestURI().getPath());
        return;
      }
      String method = exchange.getRequestMethod();
      if (!method.equals("GET") && !method.equals("HEAD")) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        JdkHttpServers.sendText(exchange, 405, "method " + method + " not allowed, use GET");
        return;
      }
      String contentType = wantsOpenMetrics(exchange.getRequestHeaders().getFirst("Accept"))
          ? OPENMETRICS_CONTENT_TYPE : TEXT_CONTENT_TYPE;
      ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
      registry.scrape(body, contentType);
      exchange.getResponseHeaders().set("Content-Type", contentType);
      if (method.equals("HEAD")) {
        exchange.sendResponseHeaders(200, -1);
        return;
      }
      exchange.sendResponseHeaders(200, body.size());
      try (OutputStream out = exchange.getResponseBody()) {
        body.writeTo(out);
      }
    }
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
