package io.github.dra4j.benchmarks.crash;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The long crash run: the crash-test driver through at least 1,000 prepare/unprepare cycles (one
 * process, then two in rolling-update mode) while it is killed with SIGKILL at random moments and
 * at planned points, the kubelet restarts and the node reboots; prints what happened and what
 * the final check found (lost, doubled, leftovers: all must be 0). CI runs a shorter version in
 * {@code CrashSafetyTest}.
 *
 * <p>Run: {@code ./mvnw -B -q -pl benchmarks exec:java
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
      CrashHarness.Settings settings = CrashHarness.Settings.of(cycles, seed);
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
