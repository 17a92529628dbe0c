package io.github.dra4j.benchmarks.clusterscale;

import io.github.dra4j.testing.apiserver.ApiRequest;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.time.Duration;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures events against the in-memory API server: {@link #begin()} empties its request log,
 * {@link #settle()} waits until neither the log nor the number of open watches has changed for a
 * quiet period (the plugin does part of its work in the background: the informers' list and
 * watch, the ResourceSlice controller's sync, the claim sweep at start) and counts what the event
 * cost.
 *
 * <p>The server logs every request it answered, a watch once when it is accepted, and counts the
 * watch streams it is serving; it does not log which client asked, so an event is measured alone:
 * all nodes of a run do the same event, then the meter settles. Not thread-safe; one meter per
 * run.
 */
final class ApiMeter {

  private static final Pattern TIMEOUT = Pattern.compile("[?&]timeoutSeconds=(\\d+)");

  private final InMemoryApiServer server;
  private final Duration quiet;
  private final Duration limit;
  private final Set<String> listAndWatchShapes = new TreeSet<>();
  private final LongSummaryStatistics watchTimeouts = new LongSummaryStatistics();

  /**
   * Creates a meter.
   *
   * @param server the API server every node uses
   * @param quiet how long nothing may change before an event counts as over
   * @param limit how long to wait for that at most
   */
  ApiMeter(InMemoryApiServer server, Duration quiet, Duration limit) {
    this.server = server;
    this.quiet = quiet;
    this.limit = limit;
  }

  /** Starts an event: forgets the requests so far. */
  void begin() {
    server.clearRequests();
  }

  /**
   * Waits until the event is over and counts it.
   *
   * @return the requests since {@link #begin()} and the watch streams open now
   * @throws InterruptedException if interrupted while waiting
   * @throws IllegalStateException if the server did not become quiet within the limit
   */
  ApiCost settle() throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    int requests = -1;
    int watches = -1;
    long stableSince = System.nanoTime();
    while (true) {
      int nowRequests = server.requests().size();
      int nowWatches = server.openWatches();
      long now = System.nanoTime();
      if (nowRequests != requests || nowWatches != watches) {
        requests = nowRequests;
        watches = nowWatches;
        stableSince = now;
      } else if (now - stableSince >= quiet.toNanos()) {
        break;
      }
      if (now > deadline) {
        throw new IllegalStateException("the API server did not become quiet within " + limit
            + ": " + requests + " requests, " + watches + " open watches");
      }
      Thread.sleep(25);
    }
    List<ApiRequest> log = server.requests();
    for (ApiRequest request : log) {
      if (request.verb() == ApiVerb.LIST) {
        listAndWatchShapes.add("LIST " + shape(request.path()));
      }
      if (request.verb() == ApiVerb.WATCH) {
        listAndWatchShapes.add("WATCH " + shape(request.path()));
        Matcher timeout = TIMEOUT.matcher(request.path());
        if (timeout.find()) {
          watchTimeouts.accept(Long.parseLong(timeout.group(1)));
        }
      }
    }
    return ApiCost.of(log, server.openWatches());
  }

  /**
   * Every kind of list and watch seen: verb and path, with node names and the resource versions
   * watches resume from left out.
   *
   * @return for example {@code WATCH /apis/resource.k8s.io/v1/resourceclaims?watch=true}
   */
  Set<String> listAndWatchShapes() {
    return Set.copyOf(listAndWatchShapes);
  }

  /**
   * The {@code timeoutSeconds} the watches asked for: the client ends each watch after it and
   * opens a new one from the last resource version, one WATCH request per timeout and watch.
   *
   * @return count, minimum, average and maximum of the values seen
   */
  LongSummaryStatistics watchTimeouts() {
    LongSummaryStatistics copy = new LongSummaryStatistics();
    copy.combine(watchTimeouts);
    return copy;
  }

  /**
   * Counts the watch streams open now.
   *
   * @return what the server reports
   */
  int openWatches() {
    return server.openWatches();
  }

  /** A watch's path with the parts that differ between nodes and attempts left out. */
  static String shape(String path) {
    return path.replaceAll("node-\\d+", "<node>")
        .replaceAll("resourceVersion=[1-9]\\d*", "resourceVersion=<rv>")
        .replaceAll("timeoutSeconds=\\d+", "timeoutSeconds=<s>")
        .replace("%3D", "=").replace("%2C", ",");
  }
}
