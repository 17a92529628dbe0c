package io.github.dra4j.webhook;

import io.github.dra4j.core.http.FatalErrors;
import io.github.dra4j.core.option.OptionChecks;
import io.micrometer.core.instrument.MeterRegistry;
import io.github.dra4j.metrics.JvmMetrics;
import io.github.dra4j.metrics.PrometheusEndpoint;
import io.github.dra4j.metrics.PrometheusRegistries;
import io.github.dra4j.webhook.internal.env.WebhookEnvironment;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Configures and starts an {@link AdmissionWebhookServer}. Every option has a default except the
 * TLS files; each setter checks its value at once and names it in the error. Not thread-safe;
 * build on one thread.
 *
 * <p>A driver's {@code webhook} command is one call, as for the kubelet plugin: the Deployment's
 * environment gives the settings ({@link #fromEnvironment()}), the server serves its meters when
 * {@code METRICS_PORT} says so, answers the Deployment's probes and stops gracefully on SIGTERM.
 *
 * <pre>{@code
 * try (AdmissionWebhookServer webhook = AdmissionWebhookServer
 *     .builder(AdmissionReviewHandler.of("gpu.example.com", scheme))
 *     .fromEnvironment()   // TLS_CERT_FILE, TLS_PRIVATE_KEY_FILE, WEBHOOK_PORT, METRICS_PORT
 *     .jvmMetrics(true)
 *     .start()) {          // WebhookStartException: one line naming the setting
 *   webhook.awaitTermination();
 * }
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

  /**
   * The environment variables {@link #fromEnvironment()} reads, in the README's order: {@code
   * TLS_CERT_FILE}, {@code TLS_PRIVATE_KEY_FILE}, {@code WEBHOOK_PORT}, {@code METRICS_PORT}.
   */
  public static final List<String> ENVIRONMENT_VARIABLES = WebhookEnvironment.VARIABLES;

  /** The options {@link #fromEnvironment()} can set, so a call of their setter can be noted. */
  enum Explicit {
    TLS, PORT, METRICS
  }

  final AdmissionReviewHandler handler;
  Path certificateFile;
  Path keyFile;
  String bindAddress = "0.0.0.0";
  int port = DEFAULT_PORT;
  String path = DEFAULT_PATH;
  int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
  Duration requestTimeout = Duration.ofSeconds(10);
  Duration certificateCheckInterval = Duration.ofSeconds(10);
  Duration shutdownGracePeriod = Duration.ofSeconds(5);
  int threads = 2;
  int queuedReviews = 64;
  int maxConnections = DEFAULT_MAX_CONNECTIONS;
  int backlog = 128;
  BiConsumer<String, Throwable> onFatalError = FatalErrors::exitProcess;
  MeterRegistry meterRegistry;
  InetSocketAddress metricsAddress;
  String metricsPath = PrometheusEndpoint.DEFAULT_PATH;
  boolean jvmMetrics;
  boolean closeOnShutdown = true;
  Map<String, String> environment;
  final Set<Explicit> explicit = EnumSet.noneOf(Explicit.class);

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
    explicit.add(Explicit.TLS);
    return this;
  }

  /**
   * Takes the settings a driver's webhook Deployment passes as environment variables: {@code
   * TLS_CERT_FILE} and {@code TLS_PRIVATE_KEY_FILE} (the PEM files, as a {@code
   * kubernetes.io/tls} Secret mounts them), {@code WEBHOOK_PORT} (the HTTPS port, 0 a random one)
   * and {@code METRICS_PORT} (the Prometheus endpoint's plain HTTP port, as the kubelet plugin
   * names it; -1 off, 0 a random port). Options set by a call of this builder win over the
   * environment, whatever the order of the calls; a missing or empty variable leaves its option
   * alone. Read by {@link #start()}, which fails with a {@link WebhookStartException} naming every
   * malformed variable and its value, and names the variable of a TLS file it cannot use.
   *
   * <p>The probes need no variable of their own: {@value #LIVE_PATH} and {@value #READY_PATH}
   * are served on the HTTPS port, where the kubelet's {@code httpGet} probes with {@code scheme:
   * HTTPS} reach them through the same TLS handshake and event loop the API server's reviews
   * take.
   *
   * @return this builder
   */
  public AdmissionWebhookServerBuilder fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * Like {@link #fromEnvironment()}, from a given map instead of the process environment: for
   * tests, and for drivers that gather their settings elsewhere (command-line flags).
   *
   * @param environment variable names to values
   * @return this builder
   */
  public AdmissionWebhookServerBuilder fromEnvironment(Map<String, String> environment) {
    this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    return this;
  }

  /**
   * Serves the webhook's meters (its reviews by resource and decision, certificate reloads, and
   * the JVM's with {@link #jvmMetrics}) for Prometheus in plain HTTP, at {@link
   * #metricsPath(String)}; default off. The registry served is the one given to {@link
   * #meterRegistry} when it is a Prometheus registry, else one of the webhook's own (made by
   * {@link PrometheusRegistries#create()}) that the given one, if any, is composed with.
   *
   * @param address where to listen, port 0 for a free one; null for no endpoint
   * @return this builder
   */
  public AdmissionWebhookServerBuilder metricsAddress(InetSocketAddress address) {
    this.metricsAddress = address;
    explicit.add(Explicit.METRICS);
    return this;
  }

  /**
   * The metrics endpoint's path; default {@value PrometheusEndpoint#DEFAULT_PATH}.
   *
   * @param path an absolute path other than {@code /}
   * @return this builder
   */
  public AdmissionWebhookServerBuilder metricsPath(String path) {
    this.metricsPath = PrometheusEndpoint.checkPath(path);
    return this;
  }

  /**
   * Registers the JVM's meters ({@link JvmMetrics}: memory, garbage collection, threads, class
   * loading, CPU, uptime, file descriptors) in the webhook's registry; default off.
   *
   * @param on whether to
   * @return this builder
   */
  public AdmissionWebhookServerBuilder jvmMetrics(boolean on) {
    this.jvmMetrics = on;
    return this;
  }

  /**
   * Whether SIGTERM and SIGINT stop the server gracefully (a JVM shutdown hook calls {@link
   * AdmissionWebhookServer#close()}, then waits up to the grace period for the threads it
   * released from {@link AdmissionWebhookServer#awaitTermination()}); default true. The hook is
   * removed when the server is closed otherwise.
   *
   * @param on whether to
   * @return this builder
   */
  public AdmissionWebhookServerBuilder closeOnShutdown(boolean on) {
    this.closeOnShutdown = on;
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
    explicit.add(Explicit.PORT);
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
    this.certificateCheckInterval = OptionChecks.positive(certificateCheckInterval,
        "certificateCheckInterval");
    return this;
  }

  /**
   * How long {@link AdmissionWebhookServer#close()} waits for the reviews in flight once it has
   * stopped accepting connections; default 5 s. Keep it below the pod's {@code
   * terminationGracePeriodSeconds} (30 s by default), after which the kubelet kills the process.
   *
   * @param shutdownGracePeriod zero or more
   * @return this builder
   */
  public AdmissionWebhookServerBuilder shutdownGracePeriod(Duration shutdownGracePeriod) {
    this.shutdownGracePeriod = OptionChecks.nonNegative(shutdownGracePeriod, "shutdownGracePeriod");
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
   * Applies the environment if one was given, reads the TLS files, binds the ports and starts
   * serving.
   *
   * @return the running server
   * @throws WebhookStartException in one line naming the setting and its value: a malformed or
   *     missing variable, a TLS file that is missing, unreadable or unusable, a key that does not
   *     belong to its certificate, a port that cannot be bound
   * @throws IllegalStateException if neither {@link #tls(Path, Path)} nor the environment gave
   *     the TLS files
   */
  public AdmissionWebhookServer start() {
    return AdmissionWebhookServer.start(WebhookSettings.of(this));
  }
}
