package io.github.dra4j.examples.gpu.chart;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs Prometheus' {@code promtool} on rule files: found in {@code DRA4J_PROMTOOL}, else on the
 * {@code PATH} (Debian's package {@code prometheus} installs it); without it the calling test is
 * skipped, never failed.
 */
final class Promtool {

  private static final long TIMEOUT_SECONDS = 60;

  private final Path binary;

  private Promtool(Path binary) {
    this.binary = binary;
  }

  /**
   * Finds promtool, or skips the calling test saying why.
   *
   * @return a runner
   */
  static Promtool require() {
    Optional<Path> found = locate();
    assumeTrue(found.isPresent(), "promtool not found in DRA4J_PROMTOOL or on the PATH"
        + " (apt-get install prometheus); PrometheusRule checks by promtool skipped");
    return new Promtool(found.get());
  }

  private static Optional<Path> locate() {
    String env = System.getenv("DRA4J_PROMTOOL");
    if (env != null && !env.isBlank()) {
      return Files.isExecutable(Path.of(env)) ? Optional.of(Path.of(env)) : Optional.empty();
    }
    String path = System.getenv("PATH");
    for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "promtool");
      if (!dir.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * Runs promtool in a directory, whatever its outcome.
   *
   * @param directory the working directory (rule files are found relative to it)
   * @param args the arguments after {@code promtool}
   * @return the exit code and output
   */
  Helm.Result run(Path directory, String... args) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(List.of(args));
    try {
      Path out = Files.createTempFile(directory, "promtool", ".out");
      Process process = new ProcessBuilder(command).directory(directory.toFile())
          .redirectErrorStream(true).redirectOutput(out.toFile()).start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(command + " did not end in " + TIMEOUT_SECONDS + " s");
      }
      return new Helm.Result(command, process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8), "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted running " + command, e);
    }
  }
}
