package io.github.dra4j.webhook;

import io.github.dra4j.core.http.FatalErrors;
import io.github.dra4j.core.http.SmallHttpServer;
import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.core.thread.DaemonThreads;
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
import java.util.concurrent.ArrayBlockingQueue;
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
 * <p>{@link #close()} stops gracefully: {@code /readyz} answers 503 at once, requests in flight
 * get up to the grace period to be answered, then the port closes. Thread-safe.
 */
public final class AdmissionWebhookServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionWebhookServer.class);

  private final SmallHttpServer server;
  private final ThreadPoolExecutor executor;
  private final ScheduledExecutorService timer;
  private final ReloadingKeyManager keys;
  private final Exchanges exchanges;
  private final long gracePeriodMillis;
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final Object closeLock = new Object();
  private volatile boolean ready;
  private boolean closed;

  private AdmissionWebhookServer(AdmissionWebhookServerBuilder settings) throws IOException {
    AdmissionReviewHandler handler = settings.handler();
    this.keys = ReloadingKeyManager.load(settings.certificateFile(), settings.keyFile());
    this.exchanges = new Exchanges();
    this.gracePeriodMillis = settings.shutdownGracePeriod().toMillis();
    MeterRegistry registry = settings.meterRegistry();
    Counter reloaded = reloads(registry, handler.driverName(), "success");
    Counter failed = reloads(registry, handler.driverName(), "error");
    this.timer = Executors.newSingleThreadScheduledExecutor(
        new DaemonThreads("dra4j-webhook-timer"));
    this.executor = new ThreadPoolExecutor(settings.threads(), settings.threads(), 0,
        TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(settings.queuedReviews()),
        new DaemonThreads("dra4j-webhook-" + handler.driverName()),
        new ThreadPoolExecutor.AbortPolicy());
    BiConsumer<String, Throwable> fatal = settings.onFatalError();
    SSLContext context = sslContext(keys);
    ReviewMeters meters = new ReviewMeters(registry, handler.driverName());
    WebhookHandler routes = new WebhookHandler(settings.path(),
        AdmissionWebhookServerBuilder.READY_PATH, handler, executor, exchanges, meters,
        () -> ready, (what, error) -> fatal.accept("admission webhook: " + what, error));
    try {
      this.server = SmallHttpServer.builder("dra4j-webhook-io", routes)
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
          .onFatal(fatal)
          .start();
    } catch (IOException | RuntimeException e) {
      timer.shutdownNow();
      executor.shutdownNow();
      throw e;
    }
    long interval = settings.certificateCheckInterval().toMillis();
    timer.scheduleWithFixedDelay(() -> reload(reloaded, failed), interval, interval,
        TimeUnit.MILLISECONDS);
    this.ready = true;
    X509Certificate certificate = keys.certificate();
    LOG.info("admission webhook of driver {} serving https://{}:{}{} with certificate {} "
        + "(valid until {})", handler.driverName(), settings.bindAddress(), port(),
        settings.path(), certificate.getSubjectX500Principal().getName(),
        certificate.getNotAfter().toInstant());
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

  static AdmissionWebhookServer start(AdmissionWebhookServerBuilder settings) throws IOException {
    return new AdmissionWebhookServer(settings);
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
   * Whether the server takes requests: true from start until {@link #close()} begins.
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
   * Blocks until the server has stopped.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitTermination() throws InterruptedException {
    terminated.await();
  }

  /**
   * Stops gracefully: {@code /readyz} answers 503, requests in flight get up to the grace period,
   * then the port and the threads close. Idempotent; returns when stopped.
   */
  @Override
  public void close() {
    synchronized (closeLock) {
      if (closed) {
        return;
      }
      closed = true;
      ready = false;
      try {
        if (!exchanges.awaitIdle(gracePeriodMillis)) {
          LOG.warn("admission requests still in flight after {} ms; closing their connections",
              gracePeriodMillis);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      server.close();
      timer.shutdownNow();
      executor.shutdownNow();
      terminated.countDown();
      LOG.info("admission webhook stopped");
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
