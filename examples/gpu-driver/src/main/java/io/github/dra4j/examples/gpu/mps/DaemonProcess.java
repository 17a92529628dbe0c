package io.github.dra4j.examples.gpu.mps;

/**
 * A process as the kernel identifies it over time: its PID and its start time in clock ticks
 * since boot (field 22 of {@code /proc/<pid>/stat}). A PID alone may be reused by another
 * process once the first ended; PID and start time together are not, within one boot.
 *
 * @param pid the process ID
 * @param startTicks its start time, in clock ticks since boot
 */
public record DaemonProcess(long pid, long startTicks) {

  /**
   * Checks the fields.
   *
   * @param pid positive
   * @param startTicks not negative
   */
  public DaemonProcess {
    if (pid <= 0 || startTicks < 0) {
      throw new IllegalArgumentException("not a process: pid " + pid + ", start " + startTicks);
    }
  }
}
