package io.github.dra4j.webhook;

import io.github.dra4j.core.http.FatalErrors;
import io.github.dra4j.core.option.OptionChecks;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Configures and starts an {@link AdmissionWebhookServer}. Every option has a default except the
 * TLS files; each setter checks its value at once and names it in the error. Not thread-safe;
 * build on one thread.
 *
 * <pre>{@code
 * AdmissionWebhookServer webhook = AdmissionWebhookServer
 *     .builder(AdmissionReviewHandler.of("gpu.example.com", scheme))
 *     .tls(Path.of("/tls/tls.crt"), Path.of("/tls/tls.key"))
 *     .port(8443)
 *     .start();
 * }</pre>
 */
public final class AdmissionWebhookServerBuilder {

  /** The path reviews are posted to unless {@link #path(String)} says otherwise. */
  public static final String DEFAULT_PATH = "/validate-resource-claim-parameters";

  /** The readiness probe's path. */
  public static final String READY_PATH = "/readyz";

  /** The port unless {@link #port(int)} says otherwise: unprivileged, so no root is needed. */
  public static final int DEFAULT_PORT = 8443;

  /**
   * The largest request body accepted unless {@link #maxRequestBytes(int)} says otherwise: an
   * UPDATE review carries the object twice, and etcd keeps objects up to 1.5 MiB.
   */
  public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

  /**
   * The most connections open at once unless {@link #maxConnections(int)} says otherwise: far
   * more than the API servers' connection pools use, few enough that their memory stays within
   * the chart's 64 MiB heap.
   */
  public static final int DEFAULT_MAX_CONNECTIONS = 512;

  /** The liveness probe's path: 200 while the server's event loop runs. */
  public static final String LIVE_PATH = "/livez";

  private final AdmissionReviewHandler handler;
  private Path certificateFile;
  private Path keyFile;
  private String bindAddress = "0.0.0.0";
  private int port = DEFAULT_PORT;
  private String path = DEFAULT_PATH;
  private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
  private Duration requestTimeout = Duration.ofSeconds(10);
  private Duration certificateCheckInterval = Duration.ofSeconds(10);
  private Duration shutdownGracePeriod = Duration.ofSeconds(5);
  private int threads = 2;
  private int queuedReviews = 64;
  private int maxConnections = DEFAULT_MAX_CONNECTIONS;
  private int backlog = 128;
  private BiConsumer<String, Throwable> onFatalError = FatalErrors::exitProcess;
  private MeterRegistry meterRegistry;

  AdmissionWebhookServerBuilder(AdmissionReviewHandler handler) {
    this.handler = Objects.requireNonNull(handler, "handler");
  }

  /**
   * The TLS certificate chain and private key, PEM files as a Secret of type {@code
   * kubernetes.io/tls} mounts them ({@code tls.crt}, {@code tls.key}). The key may be PKCS #8,
   * PKCS #1 (RSA) or SEC 1 (EC), unencrypted. Required.
   *
   * @param certificateFile the certificate chain, leaf first
   * @param keyFile the private key of the leaf certificate
   * @return this builder
   */
  public AdmissionWebhookServerBuilder tls(Path certificateFile, Path keyFile) {
    this.certificateFile = Objects.requireNonNull(certificateFile, "certificateFile");
    this.keyFile = Objects.requireNonNull(keyFile, "keyFile");
    return this;
  }

  /**
   * The address to listen on; default {@code 0.0.0.0}, all IPv4 addresses.
   *
   * @param bindAddress a host name or IP address
   * @return this builder
   */
  public AdmissionWebhookServerBuilder bindAddress(String bindAddress) {
    this.bindAddress = Objects.requireNonNull(bindAddress, "bindAddress");
    return this;
  }

  /**
   * The port; default {@value #DEFAULT_PORT}; 0 picks a free one ({@link
   * AdmissionWebhookServer#port()}).
   *
   * @param port 0 to 65535
   * @return this builder
   */
  public AdmissionWebhookServerBuilder port(int port) {
    this.port = OptionChecks.between(port, 0, 65535, "port");
    return this;
  }

  /**
   * The path reviews are posted to, as in the ValidatingWebhookConfiguration's {@code
   * clientConfig.service.path}; default {@value #DEFAULT_PATH}.
   *
   * @param path starts with {@code /}, not {@value #READY_PATH} or {@value #LIVE_PATH}
   * @return this builder
   */
  public AdmissionWebhookServerBuilder path(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/") || path.length() < 2 || path.equals(READY_PATH)
        || path.equals(LIVE_PATH) || path.contains("?") || path.contains("#")) {
      throw new IllegalArgumentException("path must be an absolute path other than /, "
          + READY_PATH + " and " + LIVE_PATH + ", got \"" + path + "\"");
    }
    this.path = path;
    return this;
  }

  /**
   * The largest request body accepted; default {@value #DEFAULT_MAX_REQUEST_BYTES}. A body
   * declared larger (Content-Length) gets 413 before it is read, one of unknown length
   * (chunked) as soon as it grows past the limit; either way its bytes are dropped, not kept, up
   * to four times the limit (at least 16 MiB), and beyond that the connection is closed. The
   * bodies held in memory at once are limited to four times this limit; a review beyond that
   * gets 503 with {@code Retry-After}.
   *
   * @param maxRequestBytes at least 1024
   * @return this builder
   */
  public AdmissionWebhookServerBuilder maxRequestBytes(int maxRequestBytes) {
    this.maxRequestBytes = OptionChecks.atLeast(maxRequestBytes, 1024, "maxRequestBytes");
    return this;
  }

  /**
   * How long one request may take before its connection is closed: from the connection's start
   * (TLS handshake, headers and body included) for its first request, from the first byte for
   * each later one, to the answer; default 10 s, the API server's default webhook timeout. A
   * client that stalls in its handshake, its headers or its body holds no thread, and its
   * connection only this long. A keep-alive connection may wait 90 s between requests.
   *
   * @param requestTimeout positive
   * @return this builder
   */
  public AdmissionWebhookServerBuilder requestTimeout(Duration requestTimeout) {
    this.requestTimeout = OptionChecks.positive(requestTimeout, "requestTimeout");
    return this;
  }

  /**
   * How often the TLS files are checked for new contents; default 10 s. The kubelet updates a
   * mounted Secret within about a minute of its change.
   *
   * @param certificateCheckInterval positive
   * @return this builder
   */
  public AdmissionWebhookServerBuilder certificateCheckInterval(
      Duration certificateCheckInterval) {
    this.certificateCheckInterval =
        OptionChecks.positive(certificateCheckInterval, "certificateCheckInterval");
    return this;
  }

  /**
   * How long {@link AdmissionWebhookServer#close()} waits for requests in flight; default 5 s.
   *
   * @param shutdownGracePeriod zero or more
   * @return this builder
   */
  public AdmissionWebhookServerBuilder shutdownGracePeriod(Duration shutdownGracePeriod) {
    this.shutdownGracePeriod =
        OptionChecks.nonNegative(shutdownGracePeriod, "shutdownGracePeriod");
    return this;
  }

  /**
   * How many reviews are decided at once, each on its own thread; default 2. A review takes a
   * fraction of a millisecond of CPU, so two keep a small pod's CPU busy; what is held in memory
   * for the reviews under way grows with this number. Reading and writing connections is done
   * apart from these threads, so a slow client never holds one.
   *
   * @param threads at least 1
   * @return this builder
   */
  public AdmissionWebhookServerBuilder threads(int threads) {
    this.threads = OptionChecks.atLeast(threads, 1, "threads");
    return this;
  }

  /**
   * How many reviews may wait for a thread; default 64. A review that finds them all taken gets
   * 503 with {@code Retry-After}.
   *
   * @param queuedReviews at least 1
   * @return this builder
   */
  public AdmissionWebhookServerBuilder queuedReviews(int queuedReviews) {
    this.queuedReviews = OptionChecks.atLeast(queuedReviews, 1, "queuedReviews");
    return this;
  }

  /**
   * The most connections open at once; default {@value #DEFAULT_MAX_CONNECTIONS}. A new
   * connection beyond it takes the place of the oldest one whose request is not being answered
   * (one that stalls in its handshake or headers, or waits idle), or is closed when every one is.
   *
   * @param maxConnections at least 1
   * @return this builder
   */
  public AdmissionWebhookServerBuilder maxConnections(int maxConnections) {
    this.maxConnections = OptionChecks.atLeast(maxConnections, 1, "maxConnections");
    return this;
  }

  /**
   * What happens on a fatal failure: an {@link Error} (such as an {@link OutOfMemoryError})
   * while deciding a review or on a connection, or the listening socket closing while the server
   * runs. Default {@link FatalErrors#exitProcess}: log it and end the process with status 70, so
   * that the container restarts rather than living on without serving. Called once, with what
   * happened and its cause.
   *
   * @param onFatalError the reaction
   * @return this builder
   */
  public AdmissionWebhookServerBuilder onFatalError(BiConsumer<String, Throwable> onFatalError) {
    this.onFatalError = Objects.requireNonNull(onFatalError, "onFatalError");
    return this;
  }

  /**
   * How many connections may wait to be accepted; default 128.
   *
   * @param backlog at least 1
   * @return this builder
   */
  public AdmissionWebhookServerBuilder backlog(int backlog) {
    this.backlog = OptionChecks.atLeast(backlog, 1, "backlog");
    return this;
  }

  /**
   * Where the webhook's meters go; default a private registry nobody reads.
   *
   * @param meterRegistry the registry, such as the driver's Prometheus registry
   * @return this builder
   */
  public AdmissionWebhookServerBuilder meterRegistry(MeterRegistry meterRegistry) {
    this.meterRegistry = Objects.requireNonNull(meterRegistry, "meterRegistry");
    return this;
  }

  /**
   * Reads the TLS files, binds the port and starts serving.
   *
   * @return the running server
   * @throws IOException if a TLS file cannot be read or the port cannot be bound
   * @throws IllegalArgumentException if the TLS files are unusable, naming the file and why
   * @throws IllegalStateException if {@link #tls(Path, Path)} was not called
   */
  public AdmissionWebhookServer start() throws IOException {
    if (certificateFile == null) {
      throw new IllegalStateException("tls(certificateFile, keyFile) is required");
    }
    return AdmissionWebhookServer.start(this);
  }

  AdmissionReviewHandler handler() {
    return handler;
  }

  Path certificateFile() {
    return certificateFile;
  }

  Path keyFile() {
    return keyFile;
  }

  String bindAddress() {
    return bindAddress;
  }

  int port() {
    return port;
  }

  String path() {
    return path;
  }

  int maxRequestBytes() {
    return maxRequestBytes;
  }

  Duration requestTimeout() {
    return requestTimeout;
  }

  Duration certificateCheckInterval() {
    return certificateCheckInterval;
  }

  Duration shutdownGracePeriod() {
    return shutdownGracePeriod;
  }

  int threads() {
    return threads;
  }

  int backlog() {
    return backlog;
  }

  int queuedReviews() {
    return queuedReviews;
  }

  int maxConnections() {
    return maxConnections;
  }

  BiConsumer<String, Throwable> onFatalError() {
    return onFatalError;
  }

  MeterRegistry meterRegistry() {
    return meterRegistry == null ? new SimpleMeterRegistry() : meterRegistry;
  }
}
