package io.github.dra4j.lifecycle.internal.checkpoint;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link CheckpointChild} in a JVM of its own, on the test class path: its output lines (stdout
 * and stderr) can be awaited, and lines can be sent to its stdin. Closing kills it if it still
 * runs.
 */
final class ChildJvm implements AutoCloseable {

  private final Process process;
  private final Writer stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();

  private ChildJvm(Process process) {
    this.process = process;
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("(output lost: " + e + ")");
      }
    }, "child-output-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code java -cp <test class path> CheckpointChild <args>}, optionally through {@code
   * /bin/sh -c '<shellPrefix>; exec "$0" "$@"'} (e.g. to set a ulimit).
   */
  static ChildJvm start(String shellPrefix, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    if (shellPrefix != null) {
      command.addAll(List.of("/bin/sh", "-c", shellPrefix + " && exec \"$0\" \"$@\""));
    }
    command.addAll(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:-UsePerfData", "-Xshare:auto", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"),
        "-Dlogback.configurationFile=" + System.getProperty("logback.configurationFile", ""),
        CheckpointChild.class.getName()));
    command.addAll(List.of(args));
    return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
  }

  /** Waits for a line starting with the prefix, skipping others (logging), and returns it. */
  String await(String prefix, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null) {
        throw new AssertionError("no line starting with \"" + prefix + "\" within " + timeout
            + "; child " + (process.isAlive() ? "runs" : "exited " + process.exitValue())
            + "; its output so far: " + seen);
      }
      seen.add(line);
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }

  /** Sends one line to the child's stdin. */
  void send(String line) throws IOException {
    stdin.write(line + "\n");
    stdin.flush();
  }

  /** Waits for the child to exit and returns its status. */
  int exitValue(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("child still runs after " + timeout + "; output: " + seen);
    }
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
