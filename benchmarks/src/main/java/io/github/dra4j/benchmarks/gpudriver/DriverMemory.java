package io.github.dra4j.benchmarks.gpudriver;

import io.github.dra4j.benchmarks.floor.JvmMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the driver's memory is made of at one moment, as its own JVM reports it through {@code
 * jcmd}: resident memory from {@code /proc/<pid>/status} (read first, before any jcmd), the heap's
 * committed size and use ({@code GC.heap_info}), metaspace ({@code VM.metaspace}), classes loaded
 * and how many of them came from a class-data archive or AOT cache ({@code PerfCounter.print}),
 * the code cache in use ({@code Compiler.codecache}), direct memory (NMT's {@code Other}, only
 * when the driver runs with {@code -XX:NativeMemoryTracking=summary}) and threads.
 *
 * @param rssKib resident memory ({@code VmRSS})
 * @param rssFileKib its file-backed part ({@code RssFile})
 * @param threads the process's threads before jcmd attached (jcmd adds the JVM's "Attach
 *     Listener" for good after its first call)
 * @param heapCommittedKib the heap's generations' committed sizes, added up
 * @param heapUsedKib the heap in use, garbage included
 * @param metaspaceUsedKib metaspace in use, class space included
 * @param metaspaceCommittedKib metaspace committed, class space included
 * @param classes classes loaded, those from an archive included
 * @param sharedClasses of those, the classes mapped from an archive or AOT cache
 * @param codeUsedKib code cache in use
 * @param directKib direct memory, -1 without NMT
 */
record DriverMemory(long rssKib, long rssFileKib, long threads, long heapCommittedKib,
    long heapUsedKib, long metaspaceUsedKib, long metaspaceCommittedKib, long classes,
    long sharedClasses, long codeUsedKib, long directKib) {

  private static final Pattern GENERATION = Pattern.compile("total (\\d+)K, used (\\d+)K");
  private static final Pattern METASPACE = Pattern
      .compile("(?m)^\\s*Metaspace\\s+used (\\d+)K, committed (\\d+)K");
  private static final Pattern CODE = Pattern.compile("(?m)^CodeCache: size=\\d+Kb used=(\\d+)Kb");
  private static final Pattern DIRECT = Pattern
      .compile("(?m)^-\\s+Other \\(reserved=\\d+KB, committed=(\\d+)KB\\)");

  /**
   * Reads the figures of a running driver.
   *
   * @param jcmd the {@code jcmd} of a JDK that can attach to the driver's JVM
   * @param pid the driver's process
   * @param nmt whether the driver runs with native memory tracking (for direct memory)
   * @return the figures; -1 for one the JVM did not give
   * @throws IOException if {@code /proc} cannot be read or jcmd fails
   * @throws InterruptedException if interrupted while waiting for jcmd
   */
  static DriverMemory of(Path jcmd, long pid, boolean nmt)
      throws IOException, InterruptedException {
    long rss = -1;
    long file = -1;
    long threads = -1;
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = number(line);
      } else if (line.startsWith("RssFile:")) {
        file = number(line);
      } else if (line.startsWith("Threads:")) {
        threads = number(line);
      }
    }
    long heapCommitted = 0;
    long heapUsed = 0;
    for (Matcher m = GENERATION.matcher(JvmMemory.jcmd(jcmd, pid, "GC.heap_info")); m.find();) {
      heapCommitted += Long.parseLong(m.group(1));
      heapUsed += Long.parseLong(m.group(2));
    }
    Matcher metaspace = METASPACE.matcher(JvmMemory.jcmd(jcmd, pid, "VM.metaspace"));
    boolean hasMetaspace = metaspace.find();
    String counters = JvmMemory.jcmd(jcmd, pid, "PerfCounter.print");
    Matcher code = CODE.matcher(JvmMemory.jcmd(jcmd, pid, "Compiler.codecache"));
    Matcher direct = DIRECT.matcher(nmt
        ? JvmMemory.jcmd(jcmd, pid, "VM.native_memory", "summary") : "");
    return new DriverMemory(rss, file, threads, heapCommitted, heapUsed,
        hasMetaspace ? Long.parseLong(metaspace.group(1)) : -1,
        hasMetaspace ? Long.parseLong(metaspace.group(2)) : -1,
        // the JVM counts the classes it parsed and those it mapped from an archive apart
        counter(counters, "java.cls.loadedClasses")
            + counter(counters, "java.cls.sharedLoadedClasses"),
        counter(counters, "java.cls.sharedLoadedClasses"),
        code.find() ? Long.parseLong(code.group(1)) : -1,
        direct.find() ? Long.parseLong(direct.group(1)) : -1);
  }

  /**
   * The heap in use after a full collection: the live set. Runs {@code GC.run} in the driver, so
   * it is read last.
   *
   * @param jcmd the {@code jcmd} of a JDK that can attach to the driver's JVM
   * @param pid the driver's process
   * @return the live heap in KiB
   * @throws IOException if jcmd fails
   * @throws InterruptedException if interrupted while waiting for jcmd
   */
  static long liveHeapKib(Path jcmd, long pid) throws IOException, InterruptedException {
    JvmMemory.jcmd(jcmd, pid, "GC.run");
    long used = 0;
    for (Matcher m = GENERATION.matcher(JvmMemory.jcmd(jcmd, pid, "GC.heap_info")); m.find();) {
      used += Long.parseLong(m.group(2));
    }
    return used;
  }

  /**
   * The figures of two moments side by side, one line each.
   *
   * @param start after start-up
   * @param end after the cycles
   * @param cycles how many cycles ran between them
   * @param liveKib the live heap after the cycles
   * @return the table
   */
  static String table(DriverMemory start, DriverMemory end, int cycles, long liveKib) {
    String row = "%-38s %18s %18s%n";
    StringBuilder table = new StringBuilder(String.format(row, "driver memory", "after start-up",
        "after " + cycles + " cycles"));
    table.append(String.format(row, "resident (VmRSS)", mib(start.rssKib), mib(end.rssKib)));
    table.append(String.format(row, "  of it file-backed (RssFile)", mib(start.rssFileKib),
        mib(end.rssFileKib)));
    table.append(String.format(row, "heap committed", mib(start.heapCommittedKib),
        mib(end.heapCommittedKib)));
    table.append(String.format(row, "heap used (garbage included)", mib(start.heapUsedKib),
        mib(end.heapUsedKib)));
    table.append(String.format(row, "heap live (after a full GC)", "", mib(liveKib)));
    table.append(String.format(row, "metaspace used / committed",
        mib(start.metaspaceUsedKib) + " / " + mib(start.metaspaceCommittedKib),
        mib(end.metaspaceUsedKib) + " / " + mib(end.metaspaceCommittedKib)));
    table.append(String.format(row, "classes loaded (from the archive)",
        start.classes + " (" + start.sharedClasses + ")",
        end.classes + " (" + end.sharedClasses + ")"));
    table.append(String.format(row, "code cache used", mib(start.codeUsedKib),
        mib(end.codeUsedKib)));
    table.append(String.format(row, "direct memory (NMT Other, -Dnmt)", mib(start.directKib),
        mib(end.directKib)));
    table.append(String.format(row, "threads", start.threads, end.threads));
    return table.toString();
  }

  private static String mib(long kib) {
    return kib < 0 ? "n/a" : String.format("%.1f MiB", kib / 1024.0);
  }

  private static long counter(String counters, String name) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "=(\\d+)").matcher(counters);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  private static long number(String line) {
    return Long.parseLong(line.replaceAll("\\D", ""));
  }
}
