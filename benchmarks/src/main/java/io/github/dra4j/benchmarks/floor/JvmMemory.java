package io.github.dra4j.benchmarks.floor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A running JVM's memory as its own diagnostics see it: {@code jcmd <pid> GC.heap_info} for the
 * heap and metaspace in use (metaspace from {@code VM.metaspace} on JDKs that no longer print it
 * there), {@code jcmd <pid> VM.native_memory summary} (the JVM must run with
 * {@code -XX:NativeMemoryTracking=summary}) for what is committed. Direct memory is NMT's
 * {@code Other} category: {@code Unsafe.allocateMemory}, which both {@code
 * ByteBuffer.allocateDirect} and Netty's pooled buffers use. A figure the JVM did not report is
 * -1.
 *
 * @param heapUsedKib heap in use (the sum of the collector's generations or regions)
 * @param heapCommittedKib heap committed (NMT {@code Java Heap})
 * @param metaspaceUsedKib metaspace in use, class space included
 * @param metaspaceCommittedKib metaspace committed, class space included
 * @param directKib direct memory committed (NMT {@code Other})
 * @param nmtCommittedKib everything NMT counts as committed
 */
public record JvmMemory(long heapUsedKib, long heapCommittedKib, long metaspaceUsedKib,
    long metaspaceCommittedKib, long directKib, long nmtCommittedKib) {

  private static final Pattern HEAP = Pattern.compile("total (\\d+)K, used (\\d+)K");
  private static final Pattern METASPACE = Pattern
      .compile("(?m)^\\s*Metaspace\\s+used (\\d+)K, committed (\\d+)K");
  private static final Pattern TOTAL = Pattern
      .compile("(?m)^Total: reserved=\\d+KB, committed=(\\d+)KB");

  /**
   * Asks a JVM for its figures.
   *
   * @param jcmd the {@code jcmd} of the JVM's own JDK
   * @param pid the JVM's process ID
   * @return the figures, -1 for those it did not give (no NMT, an unknown collector)
   * @throws IOException if jcmd cannot be run
   * @throws InterruptedException if interrupted while waiting for it
   */
  public static JvmMemory of(Path jcmd, long pid) throws IOException, InterruptedException {
    String heap = jcmd(jcmd, pid, "GC.heap_info");
    String nmt = jcmd(jcmd, pid, "VM.native_memory", "summary");
    long heapUsed = -1;
    for (Matcher m = HEAP.matcher(heap); m.find();) {
      heapUsed = Math.max(heapUsed, 0) + Long.parseLong(m.group(2));
    }
    Matcher metaspace = METASPACE.matcher(heap);
    boolean hasMetaspace = metaspace.find();
    if (!hasMetaspace) { // JDK 21 and later print it in VM.metaspace only
      metaspace = METASPACE.matcher(jcmd(jcmd, pid, "VM.metaspace"));
      hasMetaspace = metaspace.find();
    }
    Matcher total = TOTAL.matcher(nmt);
    return new JvmMemory(heapUsed, nmtCommitted(nmt, "Java Heap"),
        hasMetaspace ? Long.parseLong(metaspace.group(1)) : -1,
        hasMetaspace ? Long.parseLong(metaspace.group(2)) : -1,
        nmtCommitted(nmt, "Other"), total.find() ? Long.parseLong(total.group(1)) : -1);
  }

  /** The committed KB of one NMT summary category, -1 if it is not there. */
  private static long nmtCommitted(String nmt, String category) {
    Matcher m = Pattern.compile("(?m)^-\\s+" + Pattern.quote(category)
        + " \\(reserved=\\d+KB, committed=(\\d+)KB\\)").matcher(nmt);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /**
   * Runs one jcmd command against a JVM.
   *
   * @param jcmd the {@code jcmd} binary
   * @param pid the JVM
   * @param command the command and its arguments
   * @return what jcmd printed
   * @throws IOException if jcmd cannot be run or fails
   * @throws InterruptedException if interrupted while waiting for it
   */
  public static String jcmd(Path jcmd, long pid, String... command)
      throws IOException, InterruptedException {
    List<String> line = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
    line.addAll(List.of(command));
    Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException(String.join(" ", line) + " failed: " + out);
    }
    return out;
  }

  /**
   * The figures as one line of the report.
   *
   * @return heap, metaspace and direct memory in MiB
   */
  @Override
  public String toString() {
    return String.format("heap %s used / %s committed, metaspace %s / %s, direct %s,"
        + " NMT total committed %s", mib(heapUsedKib), mib(heapCommittedKib),
        mib(metaspaceUsedKib), mib(metaspaceCommittedKib), mib(directKib), mib(nmtCommittedKib));
  }

  /**
   * KiB as MiB for the report.
   *
   * @param kib a size in KiB, or -1 for unknown
   * @return for example {@code 12.3 MiB}, or {@code n/a}
   */
  public static String mib(long kib) {
    return kib < 0 ? "n/a" : String.format("%.1f MiB", kib / 1024.0);
  }
}
