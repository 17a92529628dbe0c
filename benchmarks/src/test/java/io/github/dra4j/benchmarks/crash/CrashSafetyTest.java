package io.github.dra4j.benchmarks.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claim lifecycle under SIGKILL, kubelet restarts, reboots and an API server that hangs or
 * answers 500, with real processes: the CI length of {@link CrashBenchmark}. Each run uses a new
 * seed, printed with the report, so a failure can be repeated with {@code CrashBenchmark <cycles>
 * <seed>}.
 */
class CrashSafetyTest {

  @TempDir
  Path root;

  private static CrashReport run(Path root, CrashSettings settings) throws Exception {
    try (CrashHarness harness = new CrashHarness(root, settings)) {
      CrashReport report = harness.run();
      System.out.print(report.text());
      return report;
    }
  }

  private static void assertClean(CrashReport report) {
    assertThat(report.findings().all()).as(report.text()).isEmpty();
    assertThat(report.reprepareErrors()).as(report.text()).isEmpty();
    assertThat(report.lost() + report.doubled() + report.leftovers()).isZero();
  }

  @Test
  void twoHundredCyclesUnderKillsAndKubeletRestartsLoseDoubleAndLeaveNothing() throws Exception {
    CrashReport report = run(root, CrashSettings.of(200, System.nanoTime()));

    assertClean(report);
    assertThat(report.cycles()).isGreaterThanOrEqualTo(200);
    assertThat(report.restarts()).as("the driver was killed").isGreaterThan(5);
    assertThat(report.plannedCrashes()).as("planned crash points were armed").isPositive();
    assertThat(report.failedCalls()).as("calls were cut").isPositive();
    assertThat(report.kubeletRestarts()).as("running claims were prepared again").isPositive();
    ApiFaultLog faults = report.apiFaults();
    assertThat(faults.faults(ApiFaultLog.Fault.HANG) + faults.faults(ApiFaultLog.Fault.ERRORS))
        .as("the API server hung or answered 500").isPositive();
    assertThat(faults.longestMillis(ApiFaultLog.Fault.HANG, ApiFaultLog.Kind.UNPREPARE))
        .as("an unprepare needs no API server").isLessThan(5000);
  }

  @Test
  void rebootsRestoreEveryClaimInUse() throws Exception {
    CrashSettings settings = new CrashSettings(40, System.nanoTime(), 6, 0.03,
        0.2, 0.02, 0.15, false, 0.03, 0); // a reboot every ~7 steps: none in 40 cycles is ~1e-4

    CrashReport report = run(root, settings);

    assertClean(report);
    assertThat(report.reboots()).as("the node rebooted").isPositive();
  }

  @Test
  void twoProcessesInRollingUpdateModeShareTheCheckpointWithoutDamage() throws Exception {
    CrashReport report = run(root, CrashSettings.of(60, System.nanoTime()).withRollingUpdate());

    assertClean(report);
    assertThat(report.cycles()).isGreaterThanOrEqualTo(60);
  }
}
