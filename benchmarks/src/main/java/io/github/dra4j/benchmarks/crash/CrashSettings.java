package io.github.dra4j.benchmarks.crash;

/**
 * What a crash run ({@link CrashHarness}) does.
 *
 * @param cycles completed prepare-then-unprepare cycles to reach
 * @param seed the random seed (printed, so a failing run can be repeated)
 * @param devices devices on the node
 * @param killChance chance that a call is cut by a SIGKILL from outside
 * @param planChance chance that a started process carries a planned crash
 * @param kubeletRestartChance chance per step of a kubelet restart
 * @param rebootChance chance per step of a node reboot
 * @param rollingUpdate two driver processes in rolling-update mode instead of one
 * @param apiFaultChance chance per step that the API server begins to hang every claim read
 *     (for up to a second) or answers the next one to four with 500 ({@code ApiFaults})
 * @param longHangChance chance that a hang lasts beyond the kubelet's deadline (50 s)
 */
public record CrashSettings(int cycles, long seed, int devices, double killChance,
    double planChance, double kubeletRestartChance, double rebootChance,
    boolean rollingUpdate, double apiFaultChance, double longHangChance) {

  /**
   * The defaults for a number of cycles.
   *
   * @param cycles completed cycles to reach
   * @param seed the random seed
   * @return settings with 6 devices, 10 % of calls killed, 70 % of starts with a planned crash,
   *     2 % kubelet restarts, 0.5 % reboots, one process, 3 % API server faults, all short
   */
  public static CrashSettings of(int cycles, long seed) {
    return new CrashSettings(cycles, seed, 6, 0.10, 0.70, 0.02, 0.005, false, 0.03, 0);
  }

  /**
   * The same with two processes in rolling-update mode.
   *
   * @return the settings
   */
  public CrashSettings withRollingUpdate() {
    return new CrashSettings(cycles, seed, devices, killChance, planChance, kubeletRestartChance,
        rebootChance, true, apiFaultChance, longHangChance);
  }

  /**
   * The same with one hang in ten lasting beyond the kubelet's deadline.
   *
   * @return the settings
   */
  public CrashSettings withLongHangs() {
    return new CrashSettings(cycles, seed, devices, killChance, planChance, kubeletRestartChance,
        rebootChance, rollingUpdate, apiFaultChance, 0.1);
  }
}
