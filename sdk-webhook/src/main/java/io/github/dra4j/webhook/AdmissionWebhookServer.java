package io.github.dra4j.webhook;

import io.github.dra4j.core.http.SmallHttpServer;
import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.metrics.PrometheusEndpoint;
import io.github.dra4j.webhook.internal.http.Exchanges;
import io.github.dra4j.webhook.internal.http.ReviewMeters;
import io.github.dra4j.webhook.internal.http.WebhookHandler;
import io.github.dra4j.webhook.internal.tls.ReloadingKeyManager;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running HTTPS admission webhook: the {@link AdmissionReviewHandler} at its path (by default
 * {@value AdmissionWebhookServerBuilder#DEFAULT_PATH}), {@code /readyz} for the readiness probe
 * and {@code /livez} for the liveness probe, on a small Netty server. Start one with {@link
 * #builder(AdmissionReviewHandler)}.
 *
 * <p>A client cannot hold the threads that decide reviews: TLS handshakes, headers and bodies
 * are read without blocking, each request has a deadline from its first byte (from the
 * connection's start for the first one, handshake included) to its answer, connections and
 * sizes are bounded, and reviews wait in a bounded queue for a fixed number of threads (see the
 * builder). An {@link Error} in a review or on a connection, or the listening socket closing
 * under the running server, is fatal: by default the process ends with status 70, so that its
 * container restarts instead of living on without serving.
 *
 * <p>The TLS certificate and key are read from PEM files and read again whenever their contents
 * change (checked every {@link AdmissionWebhookServerBuilder#certificateCheckInterval}), so a
 * certificate cert-manager renews in the mounted Secret is served to new connections without a
 * restart; a changed pair that cannot be used is logged and counted, and the previous one stays.
 * TLS 1.2 and 1.3 are offered; the API server does not present a client certificate.
 *
 * <p>With a metrics address ({@link AdmissionWebhookServerBuilder#metricsAddress}, or {@code
 * METRICS_PORT} from the environment) its meters are served for Prometheus in plain HTTP:
 * {@code dra4j_webhook_reviews_duration_seconds} by {@code resource} and {@code decision}, the
 * certificate reloads, and the JVM's with {@link AdmissionWebhookServerBuilder#jvmMetrics}.
 *
 * <p>{@link #close()} stops gracefully, and SIGTERM calls it (see {@link
 * AdmissionWebhookServerBuilder#closeOnShutdown}): {@code /readyz} answers 503 at once, the
 * listening socket closes so that no new connection is accepted, the reviews in flight get up to
 * the grace period to be answered, then the open connections close and {@link
 * #awaitTermination()} returns. Thread-safe. The server owns its threads, sockets and, when it
 * made them, its meter registry; a registry the driver gave is borrowed.
 */
public final class AdmissionWebhookServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionWebhookServer.class);

  private final WebhookSettings settings;
  private final SmallHttpServer server;
  private final ThreadPoolExecutor executor;
  private final ScheduledExecutorService timer;
  private final ReloadingKeyManager keys;
  private final Exchanges exchanges;
  private final WebhookRegistry registry;
  private final PrometheusEndpoint metrics;
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
  private final Object closeLock = new Object();
  private volatile List<Thread> released = List.of();
  private volatile boolean ready;
  private Thread shutdownHook;
  private boolean closed;

  private AdmissionWebhookServer(WebhookSettings settings) {
    this.settings = settings;
    AdmissionReviewHandler handler = settings.handler();
    this.keys = loadKeys(settings);
    this.exchanges = new Exchanges();
    this.registry = WebhookRegistry.of(settings.meterRegistry(),
        settings.metricsAddress() != null, settings.jvmMetrics());
    MeterRegistry meters = registry.all();
    Counter reloaded = reloads(meters, handler.driverName(), "success");
    Counter failed = reloads(meters, handler.driverName(), "error");
    this.timer = Executors.newSingleThreadScheduledExecutor(
        new DaemonThreads("dra4j-webhook-timer"));
    this.executor = new ThreadPoolExecutor(settings.threads(), settings.threads(), 0,
        TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(settings.queuedReviews()),
        new DaemonThreads("dra4j-webhook-" + handler.driverName()),
        new ThreadPoolExecutor.AbortPolicy());
    BiConsumer<String, Throwable> fatal = settings.onFatalError();
    SSLContext context = sslContext(keys);
    WebhookHandler routes = new WebhookHandler(settings.path(),
        AdmissionWebhookServerBuilder.READY_PATH, handler, executor, exchanges,
        new ReviewMeters(meters, handler.driverName()), () -> ready,
        (what, error) -> fatal.accept("admission webhook: " + what, error));
    SmallHttpServer started = null;
    try {
      started = listen(settings, routes, context);
      this.metrics = settings.metricsAddress() == null ? null : serveMetrics(settings);
    } catch (RuntimeException e) {
      if (started != null) {
        started.close();
      }
      timer.shutdownNow();
      executor.shutdownNow();
      registry.close();
      throw e;
    }
    this.server = started;
    long interval = settings.certificateCheckInterval().toMillis();
    // close() stops the check with the timer, and reload reports its own failures, so the
    // schedule's future has nothing to tell.
    var unused = timer.scheduleWithFixedDelay(() -> reload(reloaded, failed), interval, interval,
        TimeUnit.MILLISECONDS);
    // Ready only now: the TLS files are loaded and the port listens.
    this.ready = true;
    X509Certificate certificate = keys.certificate();
    LOG.info("admission webhook of driver {} serving https://{}:{}{} with certificate {} "
        + "(valid until {}); probes {} and {} on that port; metrics {}", handler.driverName(),
        settings.bindAddress(), port(), settings.path(),
        certificate.getSubjectX500Principal().getName(), certificate.getNotAfter().toInstant(),
        AdmissionWebhookServerBuilder.LIVE_PATH, AdmissionWebhookServerBuilder.READY_PATH,
        metrics == null ? "off" : "on port " + metrics.port() + metrics.path());
  }

  /**
   * Starts configuring a server for a handler.
   *
   * @param handler answers the reviews
   * @return a builder with the defaults
   */
  public static AdmissionWebhookServerBuilder builder(AdmissionReviewHandler handler) {
    return new AdmissionWebhookServerBuilder(handler);
  }

  static AdmissionWebhookServer start(WebhookSettings settings) {
    AdmissionWebhookServer server = new AdmissionWebhookServer(settings);
    if (settings.closeOnShutdown()) {
      server.shutdownHook = new Thread(server::shutDown,
          "dra4j-webhook-shutdown-" + settings.handler().driverName());
      Runtime.getRuntime().addShutdownHook(server.shutdownHook);
    }
    return server;
  }

  /**
   * The bound port, useful when the builder asked for port 0.
   *
   * @return the TCP port
   */
  public int port() {
    return server.port();
  }

  /**
   * The metrics endpoint's port, useful when it was asked for port 0.
   *
   * @return the TCP port, or empty when no metrics are served
   */
  public OptionalInt metricsPort() {
    return metrics == null ? OptionalInt.empty() : OptionalInt.of(metrics.port());
  }

  /**
   * The registry the webhook's meters are in, for a driver to add its own to.
   *
   * @return the registry: the one the builder was given, or the webhook's own
   */
  public MeterRegistry meterRegistry() {
    return registry.all();
  }

  /**
   * Whether the server takes requests: true once the TLS files are loaded and the port listens,
   * false from the moment {@link #close()} begins (SIGTERM included).
   *
   * @return what {@code /readyz} answers
   */
  public boolean isReady() {
    return ready;
  }

  /**
   * The leaf certificate new connections get, which changes when the files are rotated.
   *
   * @return the current certificate
   */
  public X509Certificate certificate() {
    return keys.certificate();
  }

  /**
   * Blocks until the server has stopped, for a driver's main thread. When SIGTERM stopped it, the
   * JVM's shutdown waits up to the grace period for this thread to finish what follows (a last
   * log line); do not call {@code System.exit} there, which blocks while the JVM shuts down.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitTermination() throws InterruptedException {
    Thread self = Thread.currentThread();
    waiting.add(self);
    try {
      terminated.await();
    } finally {
      waiting.remove(self);
    }
  }

  /**
   * Stops gracefully: {@code /readyz} answers 503, no new connection is accepted, the reviews in
   * flight get up to the grace period, then the connections, the metrics endpoint and the
   * threads close. Idempotent; returns when stopped.
   */
  @Override
  public void close() {
    synchronized (closeLock) {
      if (closed) {
        return;
      }
      closed = true;
      ready = false;
      long grace = settings.shutdownGracePeriod().toMillis();
      LOG.info("admission webhook stopping: not ready, accepting no new connection, waiting up"
          + " to {} ms for the reviews in flight", grace);
      server.stopAccepting();
      try {
        if (!exchanges.awaitIdle(grace)) {
          LOG.warn("admission reviews still in flight after {} ms; closing their connections",
              grace);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      server.close();
      if (metrics != null) {
        metrics.close();
      }
      timer.shutdownNow();
      executor.shutdownNow();
      registry.close();
      released = List.copyOf(waiting);
      removeShutdownHook();
      terminated.countDown();
      LOG.info("admission webhook stopped");
    }
  }

  /**
   * The shutdown hook: closes the server, then gives the threads released from {@link
   * #awaitTermination()} the grace period to finish, because the JVM halts once the hooks end.
   */
  private void shutDown() {
    close();
    long deadline = System.nanoTime() + settings.shutdownGracePeriod().toNanos();
    for (Thread thread : released) {
      try {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void removeShutdownHook() {
    if (shutdownHook == null || Thread.currentThread() == shutdownHook) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // The JVM is exiting; the hook runs or has run and finds the server closed.
    }
  }

  /** The TLS files, or one line naming the setting of the one that cannot be used. */
  private static ReloadingKeyManager loadKeys(WebhookSettings settings) {
    try {
      return ReloadingKeyManager.load(settings.certificateFile(), settings.keyFile(),
          settings.certificateName(), settings.keyName());
    } catch (IOException | IllegalArgumentException e) {
      throw new WebhookStartException(e.getMessage(), e);
    }
  }

  private static SmallHttpServer listen(WebhookSettings settings, WebhookHandler routes,
      SSLContext context) {
    try {
      return SmallHttpServer.builder("dra4j-webhook-io", routes)
          .address(new InetSocketAddress(settings.bindAddress(), settings.port()))
          .tls(() -> engine(context))
          // Two event loops: TLS handshakes cost CPU, and a flood of them must not queue the
          // API server's handshakes behind a single thread.
          .threads(2)
          .backlog(settings.backlog())
          .maxConnections(settings.maxConnections())
          .requestTimeout(settings.requestTimeout())
          .maxBodyBytes(settings.maxRequestBytes())
          .discardBytes(Math.max(4L * settings.maxRequestBytes(), 16L * 1024 * 1024))
          .bodyBudget(4L * settings.maxRequestBytes())
          .onFatal(settings.onFatalError())
          .start();
    } catch (IOException e) {
      throw new WebhookStartException(settings.portName() + ": cannot listen on "
          + settings.bindAddress() + ":" + settings.port() + ": " + e.getMessage(), e);
    }
  }

  private PrometheusEndpoint serveMetrics(WebhookSettings settings) {
    try {
      return PrometheusEndpoint.builder(registry.prometheus())
          .address(settings.metricsAddress()).path(settings.metricsPath()).start();
    } catch (IOException e) {
      throw new WebhookStartException(settings.metricsName() + ": cannot listen on "
          + settings.metricsAddress() + ": " + e.getMessage(), e);
    }
  }

  private void reload(Counter reloaded, Counter failed) {
    try {
      if (keys.reloadIfChanged()) {
        reloaded.increment();
        X509Certificate certificate = keys.certificate();
        LOG.info("webhook certificate reloaded: {} (valid until {})",
            certificate.getSubjectX500Principal().getName(),
            certificate.getNotAfter().toInstant());
      }
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      failed.increment();
      LOG.warn("webhook certificate changed but cannot be used; keeping the current one: {}",
          e.getMessage());
    }
  }

  private static Counter reloads(MeterRegistry registry, String driverName, String result) {
    return Counter.builder(MetricNames.WEBHOOK_CERTIFICATE_RELOADS)
        .description("Reloads of the admission webhook's TLS certificate")
        .tag(MetricNames.DRIVER_NAME, driverName)
        .tag(MetricNames.RESULT, result)
        .register(registry);
  }

  private static SSLContext sslContext(ReloadingKeyManager keys) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[] {keys}, null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK offers no TLS", e);
    }
  }

  private static SSLEngine engine(SSLContext context) {
    SSLEngine engine = context.createSSLEngine();
    engine.setUseClientMode(false);
    SSLParameters parameters = context.getDefaultSSLParameters();
    parameters.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
    parameters.setNeedClientAuth(false);
    engine.setSSLParameters(parameters);
    return engine;
  }
}
