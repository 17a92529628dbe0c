package io.github.dra4j.benchmarks.floor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Linux {@code perf} around one run: it samples the driver's CPU wherever it is, in the kernel
 * (socket calls, futex wake-ups of a thread hop, scheduling), in the JVM (JIT compiler, GC) and
 * in compiled Java code, which JFR's execution samples do not see. The JVM is asked for a map of
 * its compiled code ({@code jcmd <pid> Compiler.perfmap}, {@code /tmp/perf-<pid>.map}) so the
 * report names Java methods; Java call stacks need {@code -XX:+PreserveFramePointer} in the
 * driver's options. Owned by one thread.
 */
public final class PerfProfile implements AutoCloseable {

  private final Process perf;
  private final Path data;
  private final long pid;
  private final Path jcmd;

  private PerfProfile(Process perf, Path data, long pid, Path jcmd) {
    this.perf = perf;
    this.data = data;
    this.pid = pid;
    this.jcmd = jcmd;
  }

  /**
   * Starts sampling a process at about 2,000 Hz with call graphs.
   *
   * @param pid the process
   * @param data where perf writes its samples
   * @param jcmd the JVM's jcmd, for the map of compiled code
   * @return the running profile; close it to stop
   * @throws IOException if perf cannot be started
   * @throws InterruptedException if interrupted while it attaches
   */
  public static PerfProfile start(long pid, Path data, Path jcmd)
      throws IOException, InterruptedException {
    Process perf = new ProcessBuilder("perf", "record", "-e", "cpu-clock", "-F", "1999", "-g",
        "-p", Long.toString(pid), "-o", data.toString())
        .redirectErrorStream(true).redirectOutput(data.resolveSibling(data.getFileName()
            + ".log").toFile())
        .start();
    Thread.sleep(500); // perf attaches to every thread
    if (!perf.isAlive()) {
      throw new IOException("perf record exited with " + perf.exitValue() + "; see "
          + data + ".log");
    }
    return new PerfProfile(perf, data, pid, jcmd);
  }

  /**
   * Stops sampling, writes the JVM's code map, and reports: CPU by thread and by shared object,
   * and the hottest symbols, into {@code <data>.txt}.
   *
   * @return the report's first lines: CPU by thread and shared object
   * @throws IOException if perf fails
   * @throws InterruptedException if interrupted while waiting for perf
   */
  public String stop() throws IOException, InterruptedException {
    perf.destroy(); // SIGTERM: perf writes its file and exits
    if (!perf.waitFor(60, TimeUnit.SECONDS)) {
      perf.destroyForcibly();
      throw new IOException("perf record did not stop");
    }
    JvmMemory.jcmd(jcmd, pid, "Compiler.perfmap");
    String byThread = report("--sort", "comm,dso", "-g", "none");
    String bySymbol = report("--sort", "dso,sym", "-g", "none");
    String withCallers = report("--sort", "sym", "-g", "graph,1,callee");
    Path text = data.resolveSibling(data.getFileName() + ".txt");
    Files.writeString(text, byThread + "\n" + bySymbol + "\n" + withCallers,
        StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>();
    lines.add("  perf report in " + text + "; CPU by thread and shared object:");
    byThread.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).limit(20)
        .forEach(l -> lines.add("  " + l));
    return String.join("\n", lines) + "\n";
  }

  private String report(String... sort) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("perf", "report", "-i", data.toString(),
        "--stdio", "--no-children"));
    command.addAll(List.of(sort));
    Process report = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    String out = new String(report.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    report.waitFor(5, TimeUnit.MINUTES);
    return out;
  }

  /** Kills perf if it still runs. */
  @Override
  public void close() {
    if (perf.isAlive()) {
      perf.destroyForcibly();
    }
  }
}
