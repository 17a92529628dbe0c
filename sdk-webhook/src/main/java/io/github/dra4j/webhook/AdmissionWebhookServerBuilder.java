package io.github.dra4j.webhook;

import io.github.dra4j.core.option.OptionChecks;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

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
  private int threads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
  private int backlog = 128;
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
   * @param path starts with {@code /}, not {@value #READY_PATH}
   * @return this builder
   */
  public AdmissionWebhookServerBuilder path(String path) {
    Objects.requireNonNull(path, "path");
    if (!path.startsWith("/") || path.length() < 2 || path.equals(READY_PATH)
        || path.contains("?") || path.contains("#")) {
      throw new IllegalArgumentException("path must be an absolute path other than / and "
          + READY_PATH + ", got \"" + path + "\"");
    }
    this.path = path;
    return this;
  }

  /**
   * The largest request body accepted; larger ones get 413 and their connection is closed.
   * Default {@value #DEFAULT_MAX_REQUEST_BYTES}.
   *
   * @param maxRequestBytes at least 1024
   * @return this builder
   */
  public AdmissionWebhookServerBuilder maxRequestBytes(int maxRequestBytes) {
    this.maxRequestBytes = OptionChecks.atLeast(maxRequestBytes, 1024, "maxRequestBytes");
    return this;
  }

  /**
   * How long one request may take from its headers to its answer before its connection is
   * closed; default 10 s, the API server's default webhook timeout. A client that sends its
   * body slowly cannot hold a thread longer.
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
   * How many requests are handled at once; default twice the processors, at least 4.
   *
   * @param threads at least 1
   * @return this builder
   */
  public AdmissionWebhookServerBuilder threads(int threads) {
    this.threads = OptionChecks.atLeast(threads, 1, "threads");
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

  MeterRegistry meterRegistry() {
    return meterRegistry == null ? new SimpleMeterRegistry() : meterRegistry;
  }
}
