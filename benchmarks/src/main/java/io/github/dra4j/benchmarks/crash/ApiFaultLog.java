package io.github.dra4j.benchmarks.crash;

import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the kubelet's calls fared while the API server hung or answered 500: per fault and kind of
 * call, how many were answered without an error, with an error for a claim, or not at all (the
 * call's status), and how long they took. Owned by the harness thread.
 */
public final class ApiFaultLog {

  /** What the API server did while a call ran. */
  public enum Fault {
    /** Claim reads were read and left without an answer. */
    HANG("while the API server hung"),
    /** Claim reads were answered with 500 Internal Server Error. */
    ERRORS("while the API server answered 500");

    private final String text;

    Fault(String text) {
      this.text = text;
    }
  }

  /** What a call needed from the API server. */
  public enum Kind {
    /** A prepare with a claim not prepared before: its claim is read. */
    NEW_PREPARE("prepares of new claims"),
    /**
     * A prepare of claims already prepared (a kubelet restart): read only if the driver's
     * checkpoint does not hold them (after a reboot).
     */
    REPEATED_PREPARE("prepares of claims already prepared"),
    /** An unprepare: never reads. */
    UNPREPARE("unprepares");

    private final String text;

    Kind(String text) {
      this.text = text;
    }
  }

  private final Map<Fault, Map<Kind, List<Outcome>>> calls = new EnumMap<>(Fault.class);
  private final Map<Fault, Integer> started = new EnumMap<>(Fault.class);
  private final List<Long> hangMillis = new ArrayList<>();

  /** Creates an empty log. */
  public ApiFaultLog() {}

  /** One call: its outcome ({@code ok}, {@code claim error}, or a gRPC code) and duration. */
  private record Outcome(String result, long nanos) {}

  /**
   * How a call's claims fared, in short.
   *
   * @param errors the error of each claim of the answer, empty for success
   * @return {@code ok}, or the first error in short
   */
  static String result(List<String> errors) {
    return errors.stream().filter(e -> !e.isEmpty()).findFirst()
        .map(e -> e.contains("no answer from the API server")
            ? "claim error: no answer from the API server within the call's deadline"
            : "claim error: " + e.substring(0, Math.min(e.length(), 80)))
        .orElse("ok");
  }

  /**
   * A call without an answer, in short.
   *
   * @param e what the call threw
   * @return its gRPC code, or the exception's class
   */
  static String failure(RuntimeException e) {
    return e instanceof StatusRuntimeException status
        ? status.getStatus().getCode().toString() : e.getClass().getSimpleName();
  }

  /**
   * Notes a hang that begins.
   *
   * @param millis how long it lasts
   */
  void hang(long millis) {
    started.merge(Fault.HANG, 1, Integer::sum);
    hangMillis.add(millis);
  }

  /** Notes a burst of 500 answers. */
  void errors() {
    started.merge(Fault.ERRORS, 1, Integer::sum);
  }

  /**
   * Notes a call made during a fault.
   *
   * @param fault what the API server did
   * @param kind what the call needed
   * @param result {@code ok}, {@code claim error: <first error>}, the gRPC status code, or that
   *     the driver process died under the call
   * @param nanos how long it took
   */
  void call(Fault fault, Kind kind, String result, long nanos) {
    calls.computeIfAbsent(fault, f -> new EnumMap<>(Kind.class))
        .computeIfAbsent(kind, k -> new ArrayList<>()).add(new Outcome(result, nanos));
  }

  /**
   * Counts the calls made during a fault.
   *
   * @param fault the fault
   * @param kind the kind of call
   * @return how many
   */
  public int calls(Fault fault, Kind kind) {
    return calls.getOrDefault(fault, Map.of()).getOrDefault(kind, List.of()).size();
  }

  /**
   * Counts the calls made during a fault that were answered without error.
   *
   * @param fault the fault
   * @param kind the kind of call
   * @return how many
   */
  public long answeredOk(Fault fault, Kind kind) {
    return calls.getOrDefault(fault, Map.of()).getOrDefault(kind, List.of()).stream()
        .filter(o -> o.result().equals("ok")).count();
  }

  /**
   * Counts the faults begun.
   *
   * @param fault the fault
   * @return how many times it began
   */
  public int faults(Fault fault) {
    return started.getOrDefault(fault, 0);
  }

  /**
   * The longest call made during a fault.
   *
   * @param fault the fault
   * @param kind the kind of call
   * @return its duration in milliseconds, 0 without calls
   */
  public long longestMillis(Fault fault, Kind kind) {
    return calls.getOrDefault(fault, Map.of()).getOrDefault(kind, List.of()).stream()
        .mapToLong(Outcome::nanos).max().orElse(0) / 1_000_000;
  }

  /**
   * The log as printed.
   *
   * @return several lines; nothing if no fault began
   */
  public String text() {
    if (started.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "API server faults: %d hangs of claim reads (%s),"
        + " %d bursts of 500 answers%n", faults(Fault.HANG), spread(hangMillis),
        faults(Fault.ERRORS)));
    for (Fault fault : Fault.values()) {
      for (Kind kind : Kind.values()) {
        List<Outcome> outcomes = calls.getOrDefault(fault, Map.of()).getOrDefault(kind,
            List.of());
        if (outcomes.isEmpty()) {
          continue;
        }
        Map<String, Integer> results = new TreeMap<>();
        outcomes.forEach(o -> results.merge(o.result(), 1, Integer::sum));
        List<Long> millis = outcomes.stream().map(o -> o.nanos() / 1_000_000).sorted().toList();
        out.append(String.format(Locale.ROOT, "  %s, %s: %d calls, %s; latency p50 %d ms,"
            + " max %d ms%n", fault.text, kind.text, outcomes.size(), results,
            millis.get(
                millis.size() / 2),
            millis.get(millis.size() - 1)));
      }
    }
    return out.toString();
  }

  private static String spread(List<Long> millis) {
    if (millis.isEmpty()) {
      return "none";
    }
    long min = millis.stream().mapToLong(Long::longValue).min().orElse(0);
    long max = millis.stream().mapToLong(Long::longValue).max().orElse(0);
    return String.format(Locale.ROOT, "%.1f to %.1f s", min / 1000.0, max / 1000.0);
  }
}
