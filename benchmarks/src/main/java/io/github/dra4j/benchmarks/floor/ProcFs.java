package io.github.dra4j.benchmarks.floor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What Linux's {@code /proc} says about a process: its CPU time (all threads, from {@code
 * /proc/<pid>/stat}), its CPU time per thread name (from {@code /proc/<pid>/task/<tid>/stat}), and
 * the fields of {@code /proc/<pid>/status} (resident memory, threads). Stateless.
 */
public final class ProcFs {

  /** Clock ticks per second, the unit of {@code utime} and {@code stime}. */
  public static final long TICKS_PER_SECOND = clockTicks();

  private ProcFs() {}

  /**
   * The CPU time a process used so far, user and system, all its threads (dead ones included).
   *
   * @param pid the process
   * @return CPU time in microseconds, at the resolution of a clock tick
   * @throws IOException if the process is gone
   */
  public static long cpuMicros(long pid) throws IOException {
    return ticks(Path.of("/proc", Long.toString(pid), "stat")) * 1_000_000 / TICKS_PER_SECOND;
  }

  /**
   * The part of {@link #cpuMicros} spent in the kernel (system time): system calls such as
   * socket reads and writes, futex wake-ups of a thread that waits, scheduling.
   *
   * @param pid the process
   * @return system CPU time in microseconds, at the resolution of a clock tick
   * @throws IOException if the process is gone
   */
  public static long systemCpuMicros(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"),
        StandardCharsets.US_ASCII);
    return Long.parseLong(fields(stat)[12]) * 1_000_000 / TICKS_PER_SECOND;
  }

  /**
   * The CPU time of each live thread of a process, summed by thread name with digits removed
   * ({@code grpc-default-executor-3} and {@code -4} are one group); the kernel keeps 15
   * characters of a name.
   *
   * @param pid the process
   * @return thread name group to CPU time in microseconds
   * @throws IOException if the process is gone
   */
  public static Map<String, Long> cpuMicrosByThread(long pid) throws IOException {
    Map<String, Long> byName = new TreeMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
          continue; // the thread ended meanwhile
        }
        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
            .replaceAll("[0-9]+", "#");
        byName.merge(name, ticks(stat) * 1_000_000 / TICKS_PER_SECOND, Long::sum);
      }
    }
    return byName;
  }

  /**
   * The context switches of a process's live threads so far, voluntary (a thread blocked: it
   * waits for a lock, a queue, a socket) and involuntary (the scheduler took its core), from
   * {@code /proc/<pid>/task/<tid>/status}. A hand-over of a call from one thread to another costs
   * at least one voluntary switch of the thread that waits for it.
   *
   * @param pid the process
   * @return the sum over its threads
   * @throws IOException if the process is gone
   */
  public static long contextSwitches(long pid) throws IOException {
    long switches = 0;
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          for (String line : Files.readAllLines(task.resolve("status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")
                || line.startsWith("nonvoluntary_ctxt_switches:")) {
              switches += Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
          }
        } catch (NoSuchFileException e) {
          // the thread ended meanwhile
        }
      }
    }
    return switches;
  }

  /**
   * The CPU each thread group used between two readings of {@link #cpuMicrosByThread}.
   *
   * @param before the earlier reading
   * @param after the later reading
   * @return thread name group to CPU microseconds used in between (threads that ended are lost)
   */
  public static Map<String, Long> difference(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> used = new TreeMap<>();
    after.forEach((name, micros) -> used.put(name, micros - before.getOrDefault(name, 0L)));
    return used;
  }

  /**
   * The fields of {@code /proc/<pid>/status}.
   *
   * @param pid the process
   * @return field name to its value as written, without the unit ({@code VmRSS} to {@code
   *     "123456"} kB, {@code Threads} to {@code "31"})
   * @throws IOException if the process is gone
   */
  public static Map<String, String> status(long pid) throws IOException {
    Map<String, String> fields = new HashMap<>();
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).strip()
            .replaceFirst("\\s*kB$", ""));
      }
    }
    return fields;
  }

  /**
   * One numeric field of {@code /proc/<pid>/status}.
   *
   * @param pid the process
   * @param field for example {@code VmRSS} (kB) or {@code Threads}
   * @return its value
   * @throws IOException if the process is gone or has no such field
   */
  public static long statusField(long pid, String field) throws IOException {
    String value = status(pid).get(field);
    if (value == null) {
      throw new IOException("no " + field + " in /proc/" + pid + "/status");
    }
    return Long.parseLong(value);
  }

  /** utime + stime of a {@code stat} file. */
  private static long ticks(Path stat) throws IOException {
    return ticks(Files.readString(stat, StandardCharsets.US_ASCII));
  }

  /**
   * utime + stime of a {@code stat} line: fields 14 and 15, counted after the command name in
   * parentheses (which may hold spaces), whose closing parenthesis ends field 2.
   */
  private static long ticks(String stat) {
    String[] fields = fields(stat);
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** The fields of a {@code stat} line from field 3 on (index 11 is utime, 12 stime). */
  private static String[] fields(String stat) {
    return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
  }

  /** {@code getconf CLK_TCK}, 100 on every Linux this runs on if that cannot be asked. */
  private static long clockTicks() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true)
          .start();
      String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
          .strip();
      if (getconf.waitFor(10, TimeUnit.SECONDS) && getconf.exitValue() == 0
          && out.matches("[0-9]+")) {
        return Long.parseLong(out);
      }
    } catch (IOException e) {
      // fall through to the default
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 100;
  }
}
