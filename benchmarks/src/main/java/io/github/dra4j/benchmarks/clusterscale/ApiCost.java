package io.github.dra4j.benchmarks.clusterscale;

import io.github.dra4j.testing.apiserver.ApiRequest;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one event cost the API server: the requests it made, counted by verb and resource, and
 * the watch streams held open once it was over.
 *
 * <p>A request is named {@code <VERB> <resource>}, for example {@code GET resourceclaims} or
 * {@code WATCH resourceslices}; an answer other than 2xx (or 101 for a watch over WebSocket) is
 * named with its status, {@code GET resourceclaims (404)}, and a request that addresses no
 * resource (discovery) by its path, {@code GET /apis/resource.k8s.io}.
 *
 * @param requests request counts by name, sorted by name
 * @param watchStreams watch streams the server held open after the event
 */
public record ApiCost(SortedMap<String, Long> requests, long watchStreams) {

  /** No request, no watch. */
  public static final ApiCost NONE = new ApiCost(new TreeMap<>(), 0);

  /**
   * Copies the counts; a zero count is dropped, so two costs compare equal when they name the
   * same requests the same number of times.
   *
   * @param requests request counts by name
   * @param watchStreams watch streams held open
   */
  public ApiCost {
    TreeMap<String, Long> copy = new TreeMap<>();
    Objects.requireNonNull(requests, "requests").forEach((name, count) -> {
      if (count != 0) {
        copy.put(name, count);
      }
    });
    requests = Collections.unmodifiableSortedMap(copy);
  }

  /**
   * Counts a slice of the API server's request log.
   *
   * @param log the requests an event made
   * @param watchStreams the watch streams open after it
   * @return the cost
   */
  public static ApiCost of(List<ApiRequest> log, long watchStreams) {
    TreeMap<String, Long> counts = new TreeMap<>();
    for (ApiRequest request : log) {
      counts.merge(name(request), 1L, Long::sum);
    }
    return new ApiCost(counts, watchStreams);
  }

  /**
   * Names a request the way {@link #requests()} counts it.
   *
   * @param request a request of the log
   * @return for example {@code LIST resourceslices} or {@code GET resourceclaims (404)}
   */
  public static String name(ApiRequest request) {
    String name = request.verb() == null
        ? "GET " + request.path().replaceFirst("\\?.*", "")
        : request.verb() + " " + request.resource().resource();
    boolean ok = (request.status() >= 200 && request.status() < 300) || request.status() == 101;
    return ok ? name : name + " (" + request.status() + ")";
  }

  /**
   * All requests.
   *
   * @return the sum of the counts
   */
  public long total() {
    return requests.values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * How often one request was made.
   *
   * @param name for example {@code GET resourceclaims}
   * @return its count, 0 if never
   */
  public long count(String name) {
    return requests.getOrDefault(name, 0L);
  }

  /**
   * The cost of {@code n} nodes that each paid this one.
   *
   * @param n the node count
   * @return every count and the watch streams multiplied by {@code n}
   */
  public ApiCost times(long n) {
    TreeMap<String, Long> scaled = new TreeMap<>();
    requests.forEach((name, count) -> scaled.put(name, count * n));
    return new ApiCost(scaled, watchStreams * n);
  }

  /**
   * This cost and another one together, for events that follow each other.
   *
   * @param other the other cost; its watch streams replace these, being held afterwards
   * @return the summed requests, with the other's watch streams
   */
  public ApiCost then(ApiCost other) {
    TreeMap<String, Long> sum = new TreeMap<>(requests);
    other.requests.forEach((name, count) -> sum.merge(name, count, Long::sum));
    return new ApiCost(sum, other.watchStreams);
  }

  /**
   * The request names of this cost and others, sorted.
   *
   * @param costs the costs
   * @return every name any of them counts
   */
  public static List<String> names(Iterable<ApiCost> costs) {
    TreeSet<String> names = new TreeSet<>();
    for (ApiCost cost : costs) {
      names.addAll(cost.requests.keySet());
    }
    return List.copyOf(names);
  }

  /**
   * The requests in one line.
   *
   * @return for example {@code 1 GET nodes, 1 LIST resourceslices}, or {@code none}
   */
  public String describe() {
    if (requests.isEmpty()) {
      return "none";
    }
    StringBuilder text = new StringBuilder();
    for (Map.Entry<String, Long> entry : requests.entrySet()) {
      text.append(text.isEmpty() ? "" : ", ").append(entry.getValue()).append(' ')
          .append(entry.getKey());
    }
    return text.toString();
  }
}
