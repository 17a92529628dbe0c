package io.github.dra4j.resourceslice.internal.client;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first list of ResourceSlices at start, before any informer runs: one small list ({@code
 * limit=1}, {@code resourceVersion=0} so that the API server answers from its watch cache, not
 * from etcd: a DaemonSet rollout makes one per node), retried with backoff (0.5 s doubling to 8 s) until a deadline. An informer would
 * retry by itself, but its client logs every failed attempt with a stack trace; here an API server
 * that cannot be reached is one WARN line naming its URL and the cause, and another only when the
 * cause changes. Stateless.
 */
final class FirstList {

  private static final Logger LOG = LoggerFactory.getLogger(FirstList.class);
  private static final long FIRST_PAUSE_MILLIS = 500;
  private static final long LONGEST_PAUSE_MILLIS = 8000;

  private FirstList() {}

  /**
   * Lists until a list succeeds.
   *
   * @param client the bounded client
   * @param version the version to list
   * @param fieldSelector the informer's field selector
   * @param deadline {@link System#nanoTime()} by which a list must have succeeded
   * @param timeout the time that deadline stands for, for the message
   * @throws KubernetesClientException a 404 at once (the version is not served), or once the
   *     deadline passes {@code list ResourceSlices at <url>: no successful list within <timeout>,
   *     last error: <cause>}
   * @throws InterruptedException if interrupted while pausing
   */
  static void await(KubernetesClient client, SliceVersion version,
      Map<String, String> fieldSelector, long deadline, Duration timeout)
      throws InterruptedException {
    String url = BoundedClient.slicesUrl(client, version);
    String lastCause = null;
    KubernetesClientException last = null;
    long pause = FIRST_PAUSE_MILLIS;
    while (true) {
      try {
        list(client, version, fieldSelector, deadline);
        if (last != null) {
          LOG.info("List of ResourceSlices at {} succeeded", url);
        }
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
          throw e;
        }
        // A list cut off by the deadline says less than the error before it.
        if (!(e instanceof DeadlineReached) || last == null) {
          last = e;
          String cause = cause(e);
          if (!cause.equals(lastCause)) {
            LOG.warn("Cannot list ResourceSlices at {}: {} (retrying until {} have passed)", url,
                cause, timeout);
          } else {
            LOG.debug("Cannot list ResourceSlices at {}: {} (retrying)", url, cause);
          }
          lastCause = cause;
        }
      }
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        throw new KubernetesClientException("list ResourceSlices at " + url
            + ": no successful list within " + timeout + ", last error: " + lastCause,
            last.getCode(), last.getStatus());
      }
      Thread.sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, LONGEST_PAUSE_MILLIS);
    }
  }

  /**
   * One list, on a thread of its own, waited for no longer than the deadline: a server that
   * never answers must not hold the start for the client's whole request timeout.
   */
  private static void list(KubernetesClient client, SliceVersion version,
      Map<String, String> fieldSelector, long deadline) throws InterruptedException {
    FutureTask<Object> request = new FutureTask<>(() -> client.resources(version.resourceType())
        .withFields(fieldSelector)
        .list(new ListOptionsBuilder().withLimit(1L).withResourceVersion("0").build()));
    Thread thread = new Thread(request, "dra4j-resourceslice-list");
    thread.setDaemon(true);
    thread.start();
    try {
      request.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof KubernetesClientException k) {
        throw k;
      }
      throw new KubernetesClientException(String.valueOf(e.getCause().getMessage()),
          e.getCause());
    } catch (TimeoutException e) {
      request.cancel(true);
      throw new DeadlineReached();
    } catch (InterruptedException e) {
      request.cancel(true);
      throw e;
    }
  }

  /** A list that got no answer before the deadline. */
  private static final class DeadlineReached extends KubernetesClientException {
    private static final long serialVersionUID = 1L;

    DeadlineReached() {
      super("no answer", new HttpTimeoutException("request timed out"));
    }
  }

  /**
   * What went wrong, in words: the API server's answer, or the innermost error of a request that
   * got none (a refused connection says so, where the JDK gives no message).
   *
   * @param error the failed request's error
   * @return one line
   */
  static String cause(Throwable error) {
    if (error instanceof KubernetesClientException k && k.getCode() > 0) {
      return k.getMessage();
    }
    Throwable innermost = error;
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t.getMessage() != null || t instanceof ConnectException) {
        innermost = t;
      }
      if (t instanceof ConnectException) {
        break;
      }
    }
    if (innermost instanceof ConnectException && innermost.getMessage() == null) {
      return "connection refused (java.net.ConnectException)";
    }
    String message = innermost.getMessage() == null ? "" : ": " + innermost.getMessage();
    return innermost.getClass().getName() + message;
  }
}
