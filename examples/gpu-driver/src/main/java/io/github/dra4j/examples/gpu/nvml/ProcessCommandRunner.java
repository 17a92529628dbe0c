package io.github.dra4j.examples.gpu.nvml;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Runs commands as child processes: this process's environment plus the given variables,
 * standard error merged into the output, no input, and a time limit after which the process is
 * killed. Immutable and thread-safe: each call has its own process.
 */
public final class ProcessCommandRunner implements CommandRunner {

  private static final int MAX_OUTPUT_IN_MESSAGE = 4_000;
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=@%+,-]+");

  private final Map<String, String> environment;
  private final Duration timeout;

  /**
   * Creates the runner.
   *
   * @param environment variables to set for every command, for example {@code LD_PRELOAD}
   * @param timeout how long a command may run
   */
  public ProcessCommandRunner(Map<String, String> environment, Duration timeout) {
    this.environment = Map.copyOf(environment);
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  @Override
  public String run(List<String> command) throws IOException {
    String line = commandLine(command);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(environment);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IOException("cannot run `" + line + "`: " + e.getMessage(), e);
    }
    process.getOutputStream().close();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    Thread reader = new Thread(() -> drain(process.getInputStream(), output),
        "command-output");
    reader.setDaemon(true);
    reader.start();
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        reader.join(1_000);
        throw new IOException("`" + line + "` did not finish within " + timeout
            + " and was killed; output: " + shorten(output));
      }
      reader.join(timeout.toMillis());
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while running `" + line + "`");
    }
    int exit = process.exitValue();
    if (exit != 0) {
      throw new IOException("`" + line + "` failed with exit code " + exit + "; output: "
          + shorten(output));
    }
    synchronized (output) {
      return output.toString(StandardCharsets.UTF_8);
    }
  }

  /**
   * A command as a shell would show it, arguments with special characters in single quotes.
   *
   * @param command the program and its arguments
   * @return the line
   */
  public static String commandLine(List<String> command) {
    return command.stream()
        .map(arg -> PLAIN.matcher(arg).matches() ? arg : "'" + arg.replace("'", "'\\''") + "'")
        .collect(Collectors.joining(" "));
  }

  private static void drain(InputStream in, ByteArrayOutputStream output) {
    byte[] buffer = new byte[8192];
    try (in) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        synchronized (output) {
          output.write(buffer, 0, n);
        }
      }
    } catch (IOException e) {
      // the process is gone; what was read is kept
    }
  }

  private static String shorten(ByteArrayOutputStream output) {
    String text;
    synchronized (output) {
      text = output.toString(StandardCharsets.UTF_8).strip();
    }
    if (text.isEmpty()) {
      return "(none)";
    }
    return text.length() <= MAX_OUTPUT_IN_MESSAGE ? text
        : text.substring(0, MAX_OUTPUT_IN_MESSAGE) + " [...]";
  }
}
