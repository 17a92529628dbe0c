package io.github.dra4j.benchmarks.crash;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A process's threads and resident memory, from {@code /proc}: all its threads, those running
 * the plugin's gRPC handlers ({@code dra4j-grpc-N}), and its resident set.
 *
 * @param threads every thread
 * @param handlers {@code dra4j-grpc} threads
 * @param rssKib resident memory in KiB
 */
record ProcessFigures(int threads, int handlers, long rssKib) {

  /**
   * Reads a process's figures.
   *
   * @param pid the process
   * @return its figures now
   * @throws IOException if {@code /proc} cannot be read
   */
  static ProcessFigures of(long pid) throws IOException {
    Path proc = Path.of("/proc", Long.toString(pid));
    int threads = 0;
    long rss = 0;
    for (String line : Files.readAllLines(proc.resolve("status"))) {
      if (line.startsWith("Threads:")) {
        threads = Integer.parseInt(line.substring(8).trim());
      } else if (line.startsWith("VmRSS:")) {
        rss = Long.parseLong(line.substring(6).trim().split("\\s+", -1)[0]);
      }
    }
    int handlers = 0;
    try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
      for (Path task : tasks.toList()) {
        try {
          handlers += Files.readString(task.resolve("comm")).startsWith("dra4j-grpc") ? 1 : 0;
        } catch (IOException ended) {
          // the thread ended while listed
        }
      }
    }
    return new ProcessFigures(threads, handlers, rss);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%d threads (%d dra4j-grpc), RSS %.1f MiB", threads,
        handlers, rssKib / 1024.0);
  }
}
