package io.github.dra4j.benchmarks.floor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kubelet's side of {@code NodePrepareResources}: the Go program {@code bench} (grpc-go with
 * the kubelet's generated messages), run once per measurement against one DRA socket. It makes its
 * warm-up calls, then the measured ones from the given number of concurrent callers, and prints
 * one JSON line, parsed here. The server's CPU time is read from {@code /proc} around the run.
 *
 * @param binary the {@code bench} binary
 * @param claim the claim it prepares, as {@code namespace/name/uid}
 * @param warmup calls before measuring
 */
public record GoBench(Path binary, String claim, int warmup) {

  private static final Pattern NUMBER = Pattern.compile("\"(\\w+)\":(-?[0-9.eE+-]+)");

  /**
   * One run's figures.
   *
   * @param p50Millis median latency
   * @param p99Millis 99th percentile latency
   * @param maxMillis the slowest call
   * @param callsPerSecond measured calls over their wall time
   * @param cpuMicrosPerCall the server's CPU time (user + system, all threads) over the whole run,
   *     warm-up included, divided by all calls made
   * @param systemMicrosPerCall the part of {@code cpuMicrosPerCall} spent in the kernel
   * @param switchesPerCall the server's context switches over the run (its live threads),
   *     divided by all calls made
   * @param cpuByThread the server's CPU per call by thread name group, microseconds; empty unless
   *     asked for
   */
  public record Result(double p50Millis, double p99Millis, double maxMillis,
      double callsPerSecond, double cpuMicrosPerCall, double systemMicrosPerCall,
      double switchesPerCall,
      Map<String, Double> cpuByThread) {}

  /**
   * Runs {@code bench} once and waits for it.
   *
   * @param socket the server's DRA socket
   * @param serverPid the server's process, whose CPU time is measured
   * @param calls measured calls
   * @param callers concurrent callers
   * @param byThread whether to measure the server's CPU per thread group too
   * @return the figures
   * @throws IOException if bench fails, any call fails, or the server is gone
   * @throws InterruptedException if interrupted while waiting
   */
  public Result run(Path socket, long serverPid, int calls, int callers, boolean byThread)
      throws IOException, InterruptedException {
    List<String> command = List.of(binary.toString(), "-endpoint", socket.toString(),
        "-claims", claim, "-n", Integer.toString(calls), "-c", Integer.toString(callers),
        "-warmup", Integer.toString(warmup));
    Map<String, Long> threadsBefore = byThread ? ProcFs.cpuMicrosByThread(serverPid) : Map.of();
    long switchesBefore = ProcFs.contextSwitches(serverPid);
    long cpuBefore = ProcFs.cpuMicros(serverPid);
    long systemBefore = ProcFs.systemCpuMicros(serverPid);
    Process process = new ProcessBuilder(command).start();
    CompletableFuture<byte[]> stderr = CompletableFuture.supplyAsync(() -> {
      try {
        return process.getErrorStream().readAllBytes();
      } catch (IOException e) {
        return e.toString().getBytes(StandardCharsets.UTF_8);
      }
    });
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IOException("bench did not finish: " + command);
    }
    long cpuAfter = ProcFs.cpuMicros(serverPid);
    long systemAfter = ProcFs.systemCpuMicros(serverPid);
    long switchesAfter = ProcFs.contextSwitches(serverPid);
    Map<String, Long> threadsAfter = byThread ? ProcFs.cpuMicrosByThread(serverPid) : Map.of();
    String err = new String(stderr.join(), StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new IOException("bench exited with " + process.exitValue() + ": " + command
          + "\n" + out + err);
    }
    Map<String, Double> figures = parse(out);
    double errors = figures.getOrDefault("errors", -1.0);
    if (errors != 0) {
      throw new IOException(String.format("bench counted %.0f failed calls (or printed no"
          + " count): %s%n%s%s", errors, command, out, err));
    }
    int made = warmup + (calls / callers) * callers;
    Map<String, Double> perThread = new HashMap<>();
    ProcFs.difference(threadsBefore, threadsAfter).forEach((name, micros) -> {
      if (micros > 0) {
        perThread.put(name, micros / (double) made);
      }
    });
    return new Result(figure(figures, "p50ms", out), figure(figures, "p99ms", out),
        figure(figures, "maxms", out), figure(figures, "callsPerSec", out),
        (cpuAfter - cpuBefore) / (double) made, (systemAfter - systemBefore) / (double) made,
        (switchesAfter - switchesBefore) / (double) made,
        perThread);
  }

  /** The numbers of bench's flat JSON line. */
  private static Map<String, Double> parse(String json) {
    Map<String, Double> figures = new HashMap<>();
    for (Matcher m = NUMBER.matcher(json); m.find();) {
      figures.put(m.group(1), Double.parseDouble(m.group(2)));
    }
    return figures;
  }

  private static double figure(Map<String, Double> figures, String name, String out)
      throws IOException {
    Double value = figures.get(name);
    if (value == null) {
      throw new IOException("bench printed no " + name + ": " + out);
    }
    return value;
  }
}
