package io.github.dra4j.benchmarks.crash;

import java.util.Optional;

/**
 * Where the crash-test driver process kills itself with SIGKILL, to hit the windows a random kill
 * from outside rarely hits. Each names a moment of one claim's prepare or unprepare.
 */
public enum CrashPoint {
  /** In the driver's prepare, before it touches the hardware: the claim is marked started. */
  PREPARE_BEFORE_HOLD,
  /** In the driver's prepare, after it held the devices: hardware done, nothing recorded. */
  PREPARE_AFTER_HOLD,
  /** Right after the claim's CDI spec appeared: before or during the completing write. */
  AFTER_CDI_WRITE,
  /** Right after the checkpoint changed following the CDI write: before the answer is sent. */
  AFTER_CHECKPOINT_WRITE,
  /** In the driver's unprepare, after it let the devices go: the entry is still there. */
  UNPREPARE_AFTER_RELEASE;

  /** The environment variable of a crash plan, {@code <point>:<occurrence>}. */
  public static final String ENVIRONMENT = "CRASH_PLAN";

  /**
   * A process's crash plan: the point, and on which time it is reached the process dies.
   *
   * @param point where
   * @param occurrence 1 for the first time the point is reached
   */
  public record Plan(CrashPoint point, int occurrence) {
    /**
     * The form of the environment variable.
     *
     * @return {@code <point>:<occurrence>}
     */
    public String text() {
      return point.name() + ":" + occurrence;
    }

    /**
     * Reads a plan.
     *
     * @param text {@code <point>:<occurrence>}, or null or empty for none
     * @return the plan, if any
     */
    public static Optional<Plan> parse(String text) {
      if (text == null || text.isBlank()) {
        return Optional.empty();
      }
      String[] parts = text.split(":", -1);
      return Optional.of(new Plan(CrashPoint.valueOf(parts[0]), Integer.parseInt(parts[1])));
    }
  }
}
