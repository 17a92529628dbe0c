package io.github.dra4j.testing.apiserver.internal.dispatch;

import io.github.dra4j.testing.apiserver.internal.watch.WatchRequest;
import java.time.Duration;
import java.util.Locale;

/**
 * Reads the query parameters of a watch the way the real API server does: {@code
 * resourceVersion}, {@code timeoutSeconds}, {@code allowWatchBookmarks} (accepted; this server
 * sends no periodic bookmarks, which the protocol allows), and the streaming-list trio {@code
 * sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true}. Stateless.
 */
final class WatchQuery {

  private WatchQuery() {}

  /**
   * Parses and checks the watch parameters of a request.
   *
   * @param target the request
   * @return the watch options
   * @throws ApiError 400 naming a parameter that is not a number, 422 for a combination the real
   *     server forbids
   */
  static WatchRequest parse(RequestTarget target) {
    long resourceVersion = number(target, "resourceVersion");
    long timeoutSeconds = number(target, "timeoutSeconds");
    String sendInitialEvents = target.queryParameter("sendInitialEvents");
    String match = target.queryParameter("resourceVersionMatch");
    boolean bookmarks = bool(target.queryParameter("allowWatchBookmarks"));
    if (sendInitialEvents != null) {
      if (!"NotOlderThan".equals(match)) {
        throw invalidOptions("resourceVersionMatch: Forbidden: sendInitialEvents requires setting"
            + " resourceVersionMatch to NotOlderThan");
      }
      if (bool(sendInitialEvents) && !bookmarks) {
        throw invalidOptions("allowWatchBookmarks: Forbidden: sendInitialEvents requires setting"
            + " allowWatchBookmarks to true");
      }
    } else if (match != null && !match.isEmpty()) {
      throw invalidOptions("resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for"
          + " watch unless sendInitialEvents is provided");
    }
    return new WatchRequest(
        resourceVersion,
        timeoutSeconds == 0 ? null : Duration.ofSeconds(timeoutSeconds),
        sendInitialEvents != null && bool(sendInitialEvents));
  }

  private static long number(RequestTarget target, String parameter) {
    String text = target.queryParameter(parameter);
    if (text == null || text.isEmpty()) {
      return 0;
    }
    try {
      long value = Long.parseLong(text);
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ApiError(400, "BadRequest",
        "invalid " + parameter + " \"" + text + "\": not a non-negative integer");
  }

  /** Reads a boolean like the API server's query conversion: only 0, f and false are false. */
  private static boolean bool(String text) {
    if (text == null) {
      return false;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    return !(lower.equals("0") || lower.equals("f") || lower.equals("false"));
  }

  private static ApiError invalidOptions(String cause) {
    return new ApiError(422, "Invalid", "ListOptions.meta.k8s.io \"\" is invalid: " + cause);
  }
}
