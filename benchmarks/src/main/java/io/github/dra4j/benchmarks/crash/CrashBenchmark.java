package io.github.dra4j.benchmarks.crash;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The long crash run: the crash-test driver through at least 1,000 prepare/unprepare cycles (one
 * process, then two in rolling-update mode) while it is killed with SIGKILL at random moments and
 * at planned points, the kubelet restarts, the node reboots and the API server hangs (for up to a
 * second, and one hang in ten for 50 s, beyond the kubelet's 45 s deadline) or answers 500; prints
 * what happened, how the calls fared during the API server's faults, and what the final check
 * found (lost, doubled, leftovers: all must be 0). CI runs a shorter version, with short hangs
 * only, in {@code CrashSafetyTest}.
 *
 * <p>Run: {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.crash.CrashBenchmark} (optional arguments: cycles,
 * default 1000; seed, default the time).
 */
public final class CrashBenchmark {

  private CrashBenchmark() {}

  /**
   * Runs both modes and prints their reports.
   *
   * @param args optional: cycles, seed
   * @throws Exception if the harness fails
   */
  public static void main(String[] args) throws Exception {
    int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : System.currentTimeMillis();
    boolean clean = true;
    for (boolean rolling : new boolean[] {false, true}) {
      CrashSettings settings = CrashSettings.of(cycles, seed).withLongHangs();
      if (rolling) {
        settings = settings.withRollingUpdate();
      }
      Path root = Files.createTempDirectory("dra4j-crash");
      try (CrashHarness harness = new CrashHarness(root, settings)) {
        CrashReport report = harness.run();
        System.out.print(report.text());
        clean &= report.lost() == 0 && report.doubled() == 0 && report.leftovers() == 0;
      }
    }
    System.exit(clean ? 0 : 1);
  }
}
