package io.github.dra4j.webhook.internal.http;

import io.github.dra4j.core.http.SmallHttpExchange;
import io.github.dra4j.core.http.SmallHttpServer;
import io.github.dra4j.core.logging.LogValues;
import io.github.dra4j.core.logging.MdcKeys;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServerBuilder;
import io.github.dra4j.webhook.InvalidAdmissionReviewException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The webhook's requests: AdmissionReviews at one path, {@code /readyz} for the readiness probe
 * (200 while the server takes requests, 503 once it is stopping) and {@code /livez} for the
 * liveness probe (200 while the server's event loop runs; it is answered on that loop). Anything
 * else gets 404, a review by another method 405, by another content type 415.
 *
 * <p>Reviews are decided on their own threads, a fixed number of them with a bounded queue: a
 * review that finds the queue full gets 503 with {@code Retry-After}, so a flood of reviews
 * cannot make the server hold more of them in memory than the queue. A review whose connection
 * closed while it waited (its time ran out) is dropped unread. What a client sent reaches the log
 * only escaped and truncated. Thread-safe.
 */
public final class WebhookHandler implements SmallHttpServer.Handler {

  /** The liveness probe's path. */
  public static final String LIVE_PATH = AdmissionWebhookServerBuilder.LIVE_PATH;

  private static final Logger LOG = LoggerFactory.getLogger(WebhookHandler.class);
  private static final String JSON = "application/json";
  private static final int LOGGED_CHARS = 1000;

  private final String reviewPath;
  private final String readyPath;
  private final AdmissionReviewHandler handler;
  private final ExecutorService reviews;
  private final Exchanges exchanges;
  private final ReviewMeters meters;
  private final BooleanSupplier ready;
  private final BiConsumer<String, Throwable> fatal;

  /**
   * A handler.
   *
   * @param reviewPath the exact path reviews are posted to
   * @param readyPath the readiness probe's path
   * @param handler decides reviews
   * @param reviews the threads that decide reviews, with a bounded queue (borrowed)
   * @param exchanges counts reviews in flight for a graceful stop
   * @param meters records outcomes
   * @param ready whether the server takes requests
   * @param fatal called with an {@link Error} a review threw
   */
  public WebhookHandler(String reviewPath, String readyPath, AdmissionReviewHandler handler,
      ExecutorService reviews, Exchanges exchanges, ReviewMeters meters, BooleanSupplier ready,
      BiConsumer<String, Throwable> fatal) {
    this.reviewPath = reviewPath;
    this.readyPath = readyPath;
    this.handler = handler;
    this.reviews = reviews;
    this.exchanges = exchanges;
    this.meters = meters;
    this.ready = ready;
    this.fatal = fatal;
  }

  @Override
  public boolean wantsBody(String method, String path) {
    return method.equals("POST") && path.equals(reviewPath);
  }

  @Override
  public void handle(SmallHttpExchange exchange) {
    String path = exchange.path();
    if (path.equals(readyPath)) {
      boolean up = ready.getAsBoolean();
      exchange.respondText(up ? 200 : 503, up ? "ok" : "shutting down");
    } else if (path.equals(LIVE_PATH)) {
      exchange.respondText(200, "ok");
    } else if (path.startsWith(reviewPath + "/")) {
      // Counted as a review that is not one, as a mistyped registration path would send it.
      invalid(exchange, System.nanoTime(), 404, "not found: " + LogValues.line(path, 200),
          Map.of());
    } else if (!path.equals(reviewPath)) {
      exchange.respondText(404, "not found: " + LogValues.line(path, 200));
    } else {
      review(exchange);
    }
  }

  @Override
  public void abandoned(String method, String path) {
    if (path.equals(reviewPath)) {
      meters.invalid(0);
    }
  }

  private void review(SmallHttpExchange exchange) {
    long start = System.nanoTime();
    if (!exchange.method().equals("POST")) {
      invalid(exchange, start, 405, "method " + LogValues.line(exchange.method(), 20)
          + " not allowed, use POST", Map.of("Allow", "POST"));
      return;
    }
    String contentType = exchange.header("Content-Type");
    if (!isJson(contentType)) {
      invalid(exchange, start, 415, "Content-Type " + (contentType == null ? "(none)"
          : LogValues.quote(contentType, 100)) + " is not supported, want " + JSON, Map.of());
      return;
    }
    exchanges.begin();
    try {
      reviews.execute(() -> decide(exchange, start));
    } catch (RejectedExecutionException e) {
      exchanges.end();
      invalid(exchange, start, 503, "too many reviews waiting; try again",
          Map.of("Retry-After", "1"));
    }
  }

  private void decide(SmallHttpExchange exchange, long start) {
    AdmissionDecision decision = null;
    try {
      if (!exchange.isOpen()) {
        return;
      }
      decision = answer(exchange);
    } catch (Error e) {
      fatal.accept("an error while deciding a review", e);
      throw e;
    } catch (RuntimeException e) {
      LOG.warn("a review from {} failed", exchange.remoteAddress(), e);
      exchange.respondText(500, "the review failed: " + e.getClass().getName());
    } finally {
      long nanos = System.nanoTime() - start;
      if (decision == null || !exchange.isOpen()) {
        meters.invalid(nanos);
      } else {
        meters.record(decision.resource(), decision.allowed() ? ReviewMeters.Outcome.ALLOWED
            : ReviewMeters.Outcome.DENIED, nanos);
      }
      exchanges.end();
    }
  }

  /** Decides and answers a review; null when it was none (answered 400). */
  private AdmissionDecision answer(SmallHttpExchange exchange) {
    AdmissionDecision decision;
    try {
      decision = handler.handle(exchange.body());
    } catch (InvalidAdmissionReviewException e) {
      LOG.info("refused a request from {} that is not an AdmissionReview: {}",
          exchange.remoteAddress(), LogValues.line(e.getMessage(), LOGGED_CHARS));
      exchange.respondText(400, "not an admission.k8s.io/v1 AdmissionReview: "
          + e.getMessage());
      return null;
    }
    try (MDC.MDCCloseable id = MDC.putCloseable(MdcKeys.REQUEST_ID,
        LogValues.line(decision.uid(), 100))) {
      if (decision.allowed()) {
        LOG.debug("allowed");
      } else {
        LOG.info("denied: {} problem(s): {}", decision.problems().size(),
            LogValues.line(decision.problems().toString(), LOGGED_CHARS));
      }
    }
    exchange.respond(200, JSON, decision.response());
    return decision;
  }

  private void invalid(SmallHttpExchange exchange, long start, int status, String message,
      Map<String, String> headers) {
    exchange.respondText(status, message, headers);
    meters.invalid(System.nanoTime() - start);
  }

  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String media = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return media.trim().toLowerCase(Locale.ROOT).equals(JSON);
  }
}
