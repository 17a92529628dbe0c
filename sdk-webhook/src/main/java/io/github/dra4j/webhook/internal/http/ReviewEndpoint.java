package io.github.dra4j.webhook.internal.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.github.dra4j.core.http.JdkHttpServers;
import io.github.dra4j.core.logging.MdcKeys;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.InvalidAdmissionReviewException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Serves AdmissionReviews at one path: POST with {@code Content-Type: application/json} only
 * (else 405 or 415), at most a configured number of bytes (else 413; a body up to four times
 * the limit, at least 16 MiB, is read and dropped first, so the client sees the answer, and a
 * larger one gets its connection closed), a body that is a review (else 400 with the reason as
 * text), and an answer within the request timeout (else the connection is closed; the API server
 * then applies the registration's failure policy). Everything else about the review is the
 * {@link AdmissionReviewHandler}'s. Thread-safe; the HTTP server calls it from its executor.
 */
public final class ReviewEndpoint implements HttpHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ReviewEndpoint.class);
  private static final String JSON = "application/json";

  private final String path;
  private final AdmissionReviewHandler handler;
  private final int maxRequestBytes;
  private final Duration timeout;
  private final ScheduledExecutorService timer;
  private final Exchanges exchanges;
  private final ReviewMeters meters;

  /**
   * An endpoint.
   *
   * @param path the exact path it answers
   * @param handler decides reviews
   * @param maxRequestBytes the largest body accepted
   * @param timeout how long one request may take, from its headers to its answer
   * @param timer runs the timeouts (borrowed)
   * @param exchanges counts requests in flight for a graceful stop
   * @param meters records outcomes
   */
  public ReviewEndpoint(String path, AdmissionReviewHandler handler, int maxRequestBytes,
      Duration timeout, ScheduledExecutorService timer, Exchanges exchanges,
      ReviewMeters meters) {
    this.path = path;
    this.handler = handler;
    this.maxRequestBytes = maxRequestBytes;
    this.timeout = timeout;
    this.timer = timer;
    this.exchanges = exchanges;
    this.meters = meters;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    long start = System.nanoTime();
    exchanges.begin();
    AtomicBoolean done = new AtomicBoolean();
    ScheduledFuture<?> watchdog = timer.schedule(() -> {
      if (done.compareAndSet(false, true)) {
        LOG.warn("admission request from {} took longer than {}; closing its connection",
            exchange.getRemoteAddress(), timeout);
        meters.record(ReviewMeters.Outcome.INVALID, System.nanoTime() - start);
        exchange.close();
      }
    }, timeout.toNanos(), TimeUnit.NANOSECONDS);
    ReviewMeters.Outcome outcome = ReviewMeters.Outcome.INVALID;
    try {
      outcome = serve(exchange);
    } finally {
      watchdog.cancel(false);
      if (done.compareAndSet(false, true)) {
        meters.record(outcome, System.nanoTime() - start);
        exchange.close();
      }
      exchanges.end();
    }
  }

  private ReviewMeters.Outcome serve(HttpExchange exchange) throws IOException {
    if (!exchange.getRequestURI().getPath().equals(path)) {
      return text(exchange, 404, "not found: " + exchange.getRequestURI().getPath(), false);
    }
    if (!exchange.getRequestMethod().equals("POST")) {
      exchange.getResponseHeaders().set("Allow", "POST");
      return text(exchange, 405, "method " + exchange.getRequestMethod()
          + " not allowed, use POST", false);
    }
    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
    if (!isJson(contentType)) {
      return text(exchange, 415, "Content-Type " + (contentType == null ? "(none)"
          : "\"" + contentType + "\"") + " is not supported, want " + JSON, false);
    }
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    long declaredLength = length(declared);
    if (declaredLength > discardLimit()) {
      return text(exchange, 413, "request body of " + declaredLength
          + " bytes is over the limit of " + maxRequestBytes + " bytes", true);
    }
    Body body = read(exchange.getRequestBody());
    if (body.bytes() == null) {
      String size = declaredLength >= 0 ? "of " + declaredLength + " bytes "
          : body.complete() ? "of " + body.length() + " bytes " : "";
      return text(exchange, 413, "request body " + size + "is over the limit of "
          + maxRequestBytes + " bytes", !body.complete());
    }
    AdmissionDecision decision;
    try {
      decision = handler.handle(body.bytes());
    } catch (InvalidAdmissionReviewException e) {
      LOG.info("refused a request from {} that is not an AdmissionReview: {}",
          exchange.getRemoteAddress(), e.getMessage());
      return text(exchange, 400, "not an admission.k8s.io/v1 AdmissionReview: "
          + e.getMessage(), false);
    }
    try (MDC.MDCCloseable id = MDC.putCloseable(MdcKeys.REQUEST_ID, decision.uid())) {
      if (decision.allowed()) {
        LOG.debug("allowed");
      } else {
        LOG.info("denied: {} problem(s): {}", decision.problems().size(), decision.problems());
      }
    }
    exchange.getResponseHeaders().set("Content-Type", JSON);
    exchange.sendResponseHeaders(200, decision.response().length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(decision.response());
    }
    return decision.allowed() ? ReviewMeters.Outcome.ALLOWED : ReviewMeters.Outcome.DENIED;
  }

  private static long length(String declared) {
    if (declared == null) {
      return -1;
    }
    try {
      return Long.parseLong(declared.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * How much of a too-large body is read and dropped so that the client, which sends its whole
   * body before it reads the answer, sees the 413 instead of a reset connection: four times the
   * limit, at least 16 MiB. A larger body gets the 413 and a closed connection.
   */
  private long discardLimit() {
    return Math.max(4L * maxRequestBytes, 16L * 1024 * 1024);
  }

  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    int semicolon = contentType.indexOf(';');
    String media = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
    return media.trim().toLowerCase(Locale.ROOT).equals(JSON);
  }

  /**
   * A request body: its bytes, or null when it is over the limit; {@code complete} when it was
   * read to its end.
   */
  private record Body(byte[] bytes, long length, boolean complete) {
  }

  /** Reads the body, keeping at most the limit and dropping the rest up to the discard limit. */
  private Body read(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxRequestBytes, 16 * 1024));
    byte[] buffer = new byte[16 * 1024];
    long total = 0;
    long discardLimit = discardLimit();
    for (int n; (n = in.read(buffer)) >= 0; ) {
      total += n;
      if (total <= maxRequestBytes) {
        out.write(buffer, 0, n);
      } else if (total > discardLimit) {
        return new Body(null, total, false);
      }
    }
    return total > maxRequestBytes ? new Body(null, total, true)
        : new Body(out.toByteArray(), total, true);
  }

  /** Answers with a plain-text message, optionally closing the connection after it. */
  static ReviewMeters.Outcome text(HttpExchange exchange, int status, String message,
      boolean closeConnection) throws IOException {
    if (closeConnection) {
      exchange.getResponseHeaders().set("Connection", "close");
    }
    JdkHttpServers.sendText(exchange, status, message);
    return ReviewMeters.Outcome.INVALID;
  }
}
