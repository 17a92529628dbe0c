package io.github.dra4j.benchmarks.crash;

import java.util.ArrayList;
import java.util.List;

/**
 * What a crash run did and found.
 *
 * @param settings what it was asked to do
 * @param cycles completed prepare-then-unprepare cycles
 * @param calls kubelet calls made
 * @param failedCalls calls that got no answer (the process died under them)
 * @param restarts driver processes started again after dying
 * @param plannedCrashes of those starts, how many carried a planned crash point
 * @param kubeletRestarts times every running claim was prepared again
 * @param reboots simulated node reboots
 * @param preparedAtEnd claims still prepared (in use) when the run ended
 * @param millis how long the run took
 * @param findings what the final check found
 * @param reprepareErrors errors answered to a repeated prepare of a claim in use
 * @param apiFaults how calls fared while the API server hung or answered 500
 */
public record CrashReport(CrashSettings settings, int cycles, int calls, int failedCalls,
    int restarts, int plannedCrashes, int kubeletRestarts, int reboots, long preparedAtEnd,
    long millis, Invariants.Findings findings, List<String> reprepareErrors,
    ApiFaultLog apiFaults) {

  /**
   * Lost preparations: claims in use without their checkpoint entry, CDI spec or hardware, plus
   * repeated prepares of claims in use that failed.
   *
   * @return the count
   */
  public int lost() {
    return findings.lost().size() + reprepareErrors.size();
  }

  /**
   * Doubled preparations: devices held by more than one claim.
   *
   * @return the count
   */
  public int doubled() {
    return findings.doubled().size();
  }

  /**
   * Leftovers: unprepared claims with an entry, a spec or hardware still held.
   *
   * @return the count
   */
  public int leftovers() {
    return findings.leftovers().size();
  }

  /**
   * The report as printed.
   *
   * @return several lines
   */
  public String text() {
    StringBuilder out = new StringBuilder();
    out.append(String.format("seed %d, %s: %d cycles, %d calls (%d cut by a kill), %d restarts"
        + " (%d with a planned crash point), %d kubelet restarts, %d reboots, %d claims in use"
        + " at the end, %.1f s%n", settings.seed(),
        settings.rollingUpdate() ? "two processes in rolling-update mode" : "one process",
        cycles, calls, failedCalls, restarts, plannedCrashes, kubeletRestarts, reboots,
        preparedAtEnd, millis / 1000.0));
    out.append(String.format("lost %d, doubled %d, leftovers %d%n", lost(), doubled(),
        leftovers()));
    out.append(apiFaults.text());
    List<String> details = new ArrayList<>(findings.all());
    details.addAll(reprepareErrors.stream().map(e -> "repeated prepare failed: " + e).toList());
    details.forEach(d -> out.append("  ").append(d).append(System.lineSeparator()));
    return out.toString();
  }

  /** The counts while running; owned by the harness thread. */
  static final class Counter {
    int cycles;
    int calls;
    int failedCalls;
    int restarts;
    int planned;
    int kubeletRestarts;
    int reboots;
    final List<String> reprepareErrors = new ArrayList<>();

    CrashReport report(CrashSettings settings, Invariants.Findings findings,
        long preparedAtEnd, long millis, ApiFaultLog apiFaults) {
      return new CrashReport(settings, cycles, calls, failedCalls, restarts, planned,
          kubeletRestarts, reboots, preparedAtEnd, millis, findings,
          List.copyOf(reprepareErrors), apiFaults);
    }
  }
}
