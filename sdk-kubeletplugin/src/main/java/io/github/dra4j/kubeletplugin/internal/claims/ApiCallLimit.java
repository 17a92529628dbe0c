package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import java.util.concurrent.Semaphore;

/**
 * Caps how many kubelet calls wait for the API server at once: a claim read takes one of {@value
 * #CALLS} places for as long as it waits, and a read that finds them all taken fails at once with
 * {@link ApiServerBusyException} instead of waiting. The plugin's handler threads ({@code
 * HandlerPool.MAX} of them) are thus never all held by reads of an API server that does not
 * answer: the rest serve the calls that need no API server (an unprepare, the prepare of a claim
 * already prepared, the liveness probe) as if nothing were wrong.
 *
 * <p>A kubelet call reads its claims one after the other, so the places taken are the calls
 * waiting. Thread-safe; wraps the source the plugin reads claims from the API server with, in
 * front of which a claim cache may sit (whose hits need no place).
 */
public final class ApiCallLimit implements ClaimSource {

  /** How many kubelet calls may wait for the API server at once: half the handler threads. */
  public static final int CALLS = 32;

  private final ClaimSource source;
  private final int limit;
  private final Semaphore places;
  private final String apiServer;

  /**
   * Caps reads through a source.
   *
   * @param source reads from the API server (closed with this)
   * @param limit places, at least 1
   * @param apiServer the API server's URL, for the message of a refusal
   */
  public ApiCallLimit(ClaimSource source, int limit, String apiServer) {
    if (limit < 1) {
      throw new IllegalArgumentException("API call limit must be at least 1: " + limit);
    }
    this.source = source;
    this.limit = limit;
    this.places = new Semaphore(limit);
    this.apiServer = apiServer;
  }

  /**
   * {@inheritDoc}
   *
   * @throws ApiServerBusyException at once if {@code limit} reads are waiting already
   */
  @Override
  public ResourceClaim get(String namespace, String name, String expectedUid) {
    if (!places.tryAcquire()) {
      throw new ApiServerBusyException(limit + " calls are waiting for the API server at "
          + apiServer + ", the most this plugin lets wait at once");
    }
    try {
      return source.get(namespace, name, expectedUid);
    } finally {
      places.release();
    }
  }

  /**
   * The reads waiting now.
   *
   * @return places taken
   */
  public int waiting() {
    return limit - places.availablePermits();
  }

  @Override
  public void close() {
    source.close();
  }

  /** Every place is taken: the call is refused rather than queued behind the others. */
  public static final class ApiServerBusyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ApiServerBusyException(String message) {
      super(message, null, false, false);
    }
  }
}
