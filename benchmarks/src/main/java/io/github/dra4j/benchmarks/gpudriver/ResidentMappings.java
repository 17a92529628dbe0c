package io.github.dra4j.benchmarks.gpudriver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A process's resident memory by mapping, from {@code /proc/<pid>/smaps}: for each mapped file
 * (or anonymous region, named by its address range's neighbour kind), the resident and the
 * anonymous part. Shows where resident memory that the JVM's native memory tracking does not
 * name goes: the JDK's own libraries, a class-data archive, malloc arenas, thread stacks.
 *
 * @param table the printed table, largest resident first
 */
record ResidentMappings(String table) {

  /** How many rows the table keeps; the rest are summed in one line. */
  private static final int ROWS = 25;

  static ResidentMappings of(long pid) throws IOException {
    Map<String, long[]> byName = new LinkedHashMap<>(); // name -> {rss, anonymous, regions}
    String name = null;
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps"))) {
      if (Character.isDigit(line.charAt(0)) || (line.charAt(0) >= 'a' && line.charAt(0) <= 'f'
          && line.indexOf('-') > 0 && line.indexOf(':') > line.indexOf('-'))) {
        String[] fields = line.trim().split("\\s+", 6);
        name = fields.length == 6 ? fields[5] : anonymous(fields[0]);
        byName.computeIfAbsent(name, n -> new long[3])[2]++;
      } else if (name != null && line.startsWith("Rss:")) {
        byName.get(name)[0] += kib(line);
      } else if (name != null && line.startsWith("Anonymous:")) {
        byName.get(name)[1] += kib(line);
      }
    }
    StringBuilder table = new StringBuilder(String.format("%10s %10s %8s  %s%n", "rss KiB",
        "anon KiB", "regions", "mapping"));
    long[] rest = new long[3];
    long[] total = new long[3];
    int row = 0;
    for (Map.Entry<String, long[]> entry : byName.entrySet().stream()
        .sorted(Comparator.comparingLong(e -> -e.getValue()[0])).toList()) {
      long[] v = entry.getValue();
      for (int i = 0; i < 3; i++) {
        total[i] += v[i];
      }
      if (row++ < ROWS) {
        table.append(String.format("%10d %10d %8d  %s%n", v[0], v[1], v[2], entry.getKey()));
      } else {
        for (int i = 0; i < 3; i++) {
          rest[i] += v[i];
        }
      }
    }
    table.append(String.format("%10d %10d %8d  (the other %d mappings)%n", rest[0], rest[1],
        rest[2], Math.max(0, byName.size() - ROWS)));
    table.append(String.format("%10d %10d %8d  total", total[0], total[1], total[2]));
    return new ResidentMappings(table.toString());
  }

  /**
   * An anonymous region named by its size, so that regions of one kind group together: the Java
   * heap is one region of the maximum heap size, the code cache one of its reserved size, each
   * malloc arena up to 64 MiB, each thread stack its stack size plus a guard page.
   */
  private static String anonymous(String range) {
    String[] ends = range.split("-", -1);
    long kib = (Long.parseUnsignedLong(ends[1], 16) - Long.parseUnsignedLong(ends[0], 16)) / 1024;
    return kib >= 1024 ? "[anonymous, " + kib / 1024 + " MiB regions]"
        : "[anonymous, " + kib + " KiB regions]";
  }

  private static long kib(String line) {
    return Long.parseLong(line.replaceAll("\\D", ""));
  }

  @Override
  public String toString() {
    return table;
  }
}
