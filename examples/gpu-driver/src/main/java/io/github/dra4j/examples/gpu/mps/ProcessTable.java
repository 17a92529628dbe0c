package io.github.dra4j.examples.gpu.mps;

import io.github.dra4j.core.file.BoundedFileReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads processes from a procfs mount ({@code /proc}): start times, command lines, uptime. A
 * process that is gone, or a file that cannot be parsed, reads as absent. Immutable; thread-safe.
 */
public final class ProcessTable {

  /**
   * Clock ticks per second as {@code /proc} counts them ({@code USER_HZ}), which Linux fixes at
   * 100 on every architecture it exposes to programs.
   */
  static final long TICKS_PER_SECOND = 100;

  private static final long LIMIT = 64 * 1024;

  private final Path proc;

  /**
   * Creates the table.
   *
   * @param proc the procfs mount, normally {@code /proc}
   */
  public ProcessTable(Path proc) {
    this.proc = proc;
  }

  /**
   * The process with this PID as it is now.
   *
   * @param pid a process ID
   * @return its PID and start time, if it runs (a zombie counts as gone)
   */
  public Optional<DaemonProcess> process(long pid) {
    if (pid <= 0) {
      return Optional.empty();
    }
    try {
      String stat = read(proc.resolve(Long.toString(pid)).resolve("stat"));
      // the command name (field 2) is in parentheses and may hold spaces and parentheses
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ", -1);
      if (fields[0].equals("Z") || fields[0].equals("X")) {
        return Optional.empty();
      }
      return Optional.of(new DaemonProcess(pid, Long.parseLong(fields[19])));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether this very process still runs.
   *
   * @param daemon a process recorded earlier
   * @return true if a process with its PID and start time runs
   */
  public boolean isRunning(DaemonProcess daemon) {
    return process(daemon.pid()).filter(daemon::equals).isPresent();
  }

  /**
   * A process's arguments.
   *
   * @param pid a process ID
   * @return its arguments; empty if it is gone
   */
  public List<String> arguments(long pid) {
    try {
      String line = read(proc.resolve(Long.toString(pid)).resolve("cmdline"));
      List<String> arguments = new ArrayList<>();
      for (String argument : line.split("\0", -1)) {
        if (!argument.isEmpty()) {
          arguments.add(argument);
        }
      }
      return arguments;
    } catch (IOException e) {
      return List.of();
    }
  }

  /**
   * The time since boot, in clock ticks, a second early: a process started after this call has
   * a later start time.
   *
   * @return ticks since boot, minus one second; empty if {@code /proc/uptime} cannot be read
   */
  public OptionalLong nowTicks() {
    try {
      String uptime = read(proc.resolve("uptime")).trim().split("\\s+", -1)[0];
      double seconds = Double.parseDouble(uptime);
      return OptionalLong.of(Math.max(0, (long) (seconds * TICKS_PER_SECOND) - TICKS_PER_SECOND));
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  private static String read(Path file) throws IOException {
    return new String(BoundedFileReader.read(file, LIMIT), StandardCharsets.UTF_8);
  }
}
