package io.github.dra4j.examples.gpu.mps;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one command to its end with its output in a file, not a pipe: a daemon that a command
 * leaves behind may keep its inherited output open, and a pipe would then never end. Stateless.
 */
final class ControlProcesses {

  private static final int MAX_OUTPUT = 4_000;

  private ControlProcesses() {}

  /** How a command ended. */
  record Result(int exit, String output) {}

  /**
   * Runs a command.
   *
   * @param command the program and its arguments
   * @param environment variables set over this process's, all {@code CUDA_*} of it removed
   * @param input what to write to its standard input; null for none
   * @param output the file that takes its output (replaced)
   * @param timeout how long it may run before it is killed
   * @return its exit code and output
   * @throws IOException if it cannot start or does not end in time (then it is killed)
   */
  static Result run(List<String> command, Map<String, String> environment, String input,
      Path output, Duration timeout) throws IOException {
    Files.deleteIfExists(output);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(output.toFile());
    if (input == null) {
      builder.redirectInput(new File("/dev/null"));
    }
    builder.environment().keySet().removeIf(name -> name.startsWith("CUDA_"));
    builder.environment().putAll(environment);
    String line = String.join(" ", command);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IOException("cannot run `" + line + "`: " + e.getMessage(), e);
    }
    try {
      if (input != null) {
        try (var stdin = process.getOutputStream()) {
          stdin.write(input.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
          // it ended without reading its input: its exit code and output tell why
        }
      }
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IOException("`" + line + "`" + (input == null ? "" : " with input \""
            + input.strip() + "\"") + " did not finish within " + timeout + " and was killed;"
            + " output: " + read(output));
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while running `" + line + "`");
    }
    return new Result(process.exitValue(), read(output));
  }

  /** What a command printed, shortened, or {@code (none)}. */
  static String read(Path output) {
    try {
      String text = Files.exists(output) ? Files.readString(output).strip() : "";
      if (text.isEmpty()) {
        return "(none)";
      }
      return text.length() <= MAX_OUTPUT ? text : text.substring(0, MAX_OUTPUT) + " [...]";
    } catch (IOException | RuntimeException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }
}
