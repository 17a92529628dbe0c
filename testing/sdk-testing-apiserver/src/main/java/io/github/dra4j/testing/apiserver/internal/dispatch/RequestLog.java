package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.testing.apiserver.ApiRequest;
import java.util.ArrayList;
import java.util.List;

/** The requests the server answered, in order. Thread-safe (synchronizes on the log). */
public final class RequestLog {

  private final List<ApiRequest> entries = new ArrayList<>();
  private long sequence;

  /**
   * Appends an answered request.
   *
   * @param target the parsed request
   * @param rawPath the path with query as received
   * @param status the HTTP status of the answer
   */
  public synchronized void record(RequestTarget target, String rawPath, int status) {
    entries.add(
        new ApiRequest(
            ++sequence,
            target == null ? null : target.verb(),
            target == null ? null : target.resource(),
            target == null ? null : target.namespace(),
            target == null ? null : target.name(),
            rawPath,
            status));
  }

  /**
   * Returns a copy of the log.
   *
   * @return the requests answered since the start or the last {@link #clear()}
   */
  public synchronized List<ApiRequest> snapshot() {
    return List.copyOf(entries);
  }

  /** Empties the log; sequence numbers keep counting. */
  public synchronized void clear() {
    entries.clear();
  }
}
