package io.github.dra4j.kubeletplugin.internal.api;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GETs and PUTs through an API client's HTTP client (its authentication, impersonation and rate
 * limit included), each ending by an {@link ApiDeadline}: a request never outlives the deadline,
 * and a kubelet call's cancellation ends the wait at once.
 *
 * <p>The client's own settings are honoured within the deadline: each try is bounded by the
 * client's request timeout, and a try that failed on the way (a timeout, a refused or reset
 * connection) or with a 5xx status is repeated as fabric8 would repeat it (up to the client's
 * retry limit, pausing its backoff interval doubled per try, at most 32 times it), but only if
 * the pause ends before the deadline. fabric8's own retries are turned off for these requests:
 * they would go on in the background after the deadline, for up to two minutes with the default
 * settings when the API server accepts connections and never answers.
 *
 * <p>Answers are read as fabric8's DSL reads them: the body parsed with the client's
 * serialization on the calling thread, other failures as {@link KubernetesClientException} with
 * the API server's status. Immutable and thread-safe; made for one client ({@link #of}).
 */
public final class ApiRequests {

  private static final Logger LOG = LoggerFactory.getLogger(ApiRequests.class);
  private static final int MAX_BACKOFF_EXPONENT = 5;

  private final KubernetesClient client;
  private final HttpClient http;
  private final String master;
  private final long requestTimeoutNanos;
  private final int retries;
  private final long backoffNanos;

  private ApiRequests(KubernetesClient client, HttpClient http, String master,
      long requestTimeoutNanos, int retries, long backoffNanos) {
    this.client = client;
    this.http = http;
    this.master = master;
    this.requestTimeoutNanos = requestTimeoutNanos;
    this.retries = retries;
    this.backoffNanos = backoffNanos;
  }

  /**
   * Prepares requests through a client: its master URL, request timeout and retry settings are
   * read once.
   *
   * @param client the API client (borrowed)
   * @return the requests for that client
   * @throws IllegalStateException if the client has no master URL
   */
  public static ApiRequests of(KubernetesClient client) {
    if (client.getMasterUrl() == null) {
      throw new IllegalStateException("the API client has no master URL");
    }
    String master = client.getMasterUrl().toString();
    while (master.endsWith("/")) {
      master = master.substring(0, master.length() - 1);
    }
    Config config = client.getConfiguration();
    // The same HTTP client (connections, interceptors), without fabric8's retries: they are
    // made here, within the deadline.
    HttpClient http = client.getHttpClient().newBuilder().tag(
        new RequestConfigBuilder(config.getRequestConfig()).withRequestRetryBackoffLimit(0)
            .build())
        .build();
    return new ApiRequests(client, http, master,
        TimeUnit.MILLISECONDS.toNanos(atLeastZero(config.getRequestTimeout())),
        atLeastZero(config.getRequestRetryBackoffLimit()),
        TimeUnit.MILLISECONDS.toNanos(atLeastZero(config.getRequestRetryBackoffInterval())));
  }

  private static int atLeastZero(Integer setting) {
    return setting == null ? 0 : Math.max(0, setting);
  }

  /**
   * Whether these requests were made for a client.
   *
   * @param other a client
   * @return true if it is the one these requests use
   */
  public boolean isFor(KubernetesClient other) {
    return client == other;
  }

  /**
   * The API client these requests use.
   *
   * @return the client
   */
  public KubernetesClient client() {
    return client;
  }

  /**
   * A URL on the API server.
   *
   * @param path a path starting with {@code /}, such as {@code /apis/resource.k8s.io}
   * @return the client's master URL (with any path of its own) and the path
   */
  public String url(String path) {
    return master + path;
  }

  /**
   * Reads one object.
   *
   * @param url its URL ({@link #url})
   * @param type the model class
   * @param deadline when to give up
   * @param <T> the model type
   * @return the object, or null if the API server answered 404
   * @throws KubernetesClientException if the API server answered with another error, could not
   *     be reached, or gave no answer before the deadline or the call's cancellation (the message
   *     names the URL and the time given), or the thread was interrupted (its flag is then set
   *     again)
   */
  public <T> T get(String url, Class<T> type, ApiDeadline deadline) {
    HttpResponse<byte[]> response = send("GET", url, null, deadline);
    if (response.code() == HttpURLConnection.HTTP_NOT_FOUND) {
      return null;
    }
    return parse(response, type);
  }

  /**
   * Replaces one object (or subresource) with optimistic concurrency on the resource version in
   * its metadata.
   *
   * @param url its URL ({@link #url})
   * @param body the object to send
   * @param type the model class of the answer
   * @param deadline when to give up
   * @param <T> the model type
   * @return what the API server stored
   * @throws KubernetesClientException as {@link #get}, 404 and 409 included
   */
  public <T> T put(String url, Object body, Class<T> type, ApiDeadline deadline) {
    String json = client.getKubernetesSerialization().asJson(body);
    return parse(send("PUT", url, json, deadline), type);
  }

  private <T> T parse(HttpResponse<byte[]> response, Class<T> type) {
    KubernetesSerialization serialization = client.getKubernetesSerialization();
    if (!response.isSuccessful()) {
      throw OperationSupport.requestFailure(response.request(),
          OperationSupport.createStatus(response, serialization));
    }
    byte[] body = response.body();
    if (body == null || body.length == 0) {
      throw new KubernetesClientException(response.request().method() + " "
          + response.request().uri() + ": HTTP " + response.code() + " with an empty body",
          response.code(), null);
    }
    return serialization.unmarshal(new ByteArrayInputStream(body), type);
  }

  /** Sends until answered (a 5xx after the last try counts as an answer), or throws. */
  private HttpResponse<byte[]> send(String method, String url, String json,
      ApiDeadline deadline) {
    String what = method + " " + url;
    String lastProblem = null;
    for (int attempt = 0;; attempt++) {
      long left = deadline.remainingNanos();
      if (left <= 0 || deadline.isCancelled()) {
        throw stopped(what, deadline, deadline.isCancelled(), lastProblem);
      }
      long timeout = requestTimeoutNanos > 0 ? Math.min(requestTimeoutNanos, left) : left;
      HttpRequest.Builder builder = http.newHttpRequestBuilder().uri(url)
          .timeout(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeout)), TimeUnit.MILLISECONDS);
      if (json != null) {
        builder.put("application/json", json);
      }
      HttpRequest request = builder.build();
      HttpResponse<byte[]> response;
      try {
        response = deadline.await(http.sendAsync(request, byte[].class));
      } catch (ApiDeadline.Stopped e) {
        throw stopped(what, deadline, e.cancelled(), lastProblem);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new KubernetesClientException(what + ": interrupted", e);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        if (cause instanceof KubernetesClientException known) {
          throw known.copyAsCause();
        }
        if (!(cause instanceof IOException || cause instanceof TimeoutException)) {
          throw new KubernetesClientException(what + " failed: " + cause, cause);
        }
        String problem = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        if (timeout == left && isTimeout(cause)) {
          // The try was given what was left and timed out: the deadline has come.
          throw stopped(what, deadline, false, lastProblem);
        }
        lastProblem = problem;
        if (retryAfterPause(attempt, deadline, what, lastProblem)) {
          continue;
        }
        throw new KubernetesClientException(what + " failed: " + lastProblem, cause);
      }
      warnings(request, response);
      if (response.code() >= 500) {
        lastProblem = "HTTP " + response.code();
        if (retryAfterPause(attempt, deadline, what, lastProblem)) {
          continue;
        }
      }
      return response;
    }
  }

  /** Pauses and says yes if another try is allowed and its pause ends before the deadline. */
  private boolean retryAfterPause(int attempt, ApiDeadline deadline, String what,
      String problem) {
    if (attempt >= retries) {
      return false;
    }
    long pause = backoffNanos << Math.min(attempt, MAX_BACKOFF_EXPONENT);
    if (pause >= deadline.remainingNanos()) {
      return false;
    }
    LOG.debug("{}: {}; trying again in {} ms", what, problem,
        TimeUnit.NANOSECONDS.toMillis(pause));
    try {
      deadline.pause(pause);
    } catch (ApiDeadline.Stopped e) {
      throw stopped(what, deadline, e.cancelled(), problem);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException(what + ": interrupted", e);
    }
    return true;
  }

  /** A try that ran out of time: the HTTP client's own timeout (JDK or Vert.x). */
  private static boolean isTimeout(Throwable cause) {
    return cause instanceof TimeoutException || cause instanceof HttpTimeoutException;
  }

  private static KubernetesClientException stopped(String what, ApiDeadline deadline,
      boolean cancelled, String lastProblem) {
    String last = lastProblem == null ? "" : "; last error: " + lastProblem;
    if (cancelled) {
      return new KubernetesClientException(what + ": the kubelet cancelled the call" + last);
    }
    return new KubernetesClientException(what + ": no answer from the API server within "
        + deadline.describe() + last);
  }

  private static void warnings(HttpRequest request, HttpResponse<byte[]> response) {
    List<String> warnings = response.headers("Warning");
    if (warnings != null && !warnings.isEmpty()) {
      LOG.warn("The API server warned about {} {}: {}", request.method(), request.uri(),
          LogText.text(String.valueOf(warnings)));
    }
  }
}
