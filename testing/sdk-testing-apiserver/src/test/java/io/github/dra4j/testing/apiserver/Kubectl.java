package io.github.dra4j.testing.apiserver;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real kubectl of at least version 1.35 for the tests, found in this order: the system property
 * {@code dra4j.kubectl}, the environment variable {@code DRA4J_KUBECTL} (set by {@code .ci/run}),
 * the cache directory {@code ~/.cache/dra4j/kubectl-1.35} that {@code
 * testing/sdk-testing-apiserver/src/test/kubectl/install-kubectl.sh} fills, and {@code kubectl} on
 * the {@code PATH}. Older versions (Debian ships 1.32) are passed over. Without one, {@link
 * #require(Path, Path)} skips the calling test and says why. Each instance runs commands against
 * one kubeconfig with a home directory of its own, so discovery and OpenAPI caches never leak
 * between tests. Immutable.
 */
final class Kubectl {

  /** The oldest minor version the tests accept. */
  static final int MIN_MINOR = 35;

  private static final Pattern MINOR = Pattern.compile("\"minor\"\\s*:\\s*\"(\\d+)");
  private static final long TIMEOUT_SECONDS = 60;

  private final Path binary;
  private final Path kubeconfig;
  private final Path home;

  private Kubectl(Path binary, Path kubeconfig, Path home) {
    this.binary = binary;
    this.kubeconfig = kubeconfig;
    this.home = home;
  }

  /**
   * Finds kubectl 1.35 or newer, or skips the test.
   *
   * @param kubeconfig the kubeconfig to use
   * @param home a directory to use as {@code HOME} (kubectl's caches go there)
   * @return the runner
   */
  static Kubectl require(Path kubeconfig, Path home) {
    List<String> tried = new ArrayList<>();
    Optional<Path> found = candidates().stream()
        .filter(candidate -> {
          Optional<Integer> minor = minorVersion(candidate);
          tried.add(candidate + minor.map(m -> " (1." + m + ")").orElse(" (not runnable)"));
          return minor.filter(m -> m >= MIN_MINOR).isPresent();
        })
        .findFirst();
    assumeTrue(found.isPresent(), () -> "kubectl 1." + MIN_MINOR + " or newer not found, kubectl"
        + " tests skipped; run testing/sdk-testing-apiserver/src/test/kubectl/install-kubectl.sh"
        + " or set DRA4J_KUBECTL. Tried: "
        + (tried.isEmpty() ? "nothing" : String.join(", ", tried)));
    return new Kubectl(found.get(), kubeconfig, home);
  }

  private static List<Path> candidates() {
    List<Path> result = new ArrayList<>();
    String property = System.getProperty("dra4j.kubectl");
    if (property != null && !property.isBlank()) {
      result.add(Path.of(property));
    }
    String variable = System.getenv("DRA4J_KUBECTL");
    if (variable != null && !variable.isBlank()) {
      result.add(Path.of(variable));
    }
    result.add(Path.of(System.getProperty("user.home"), ".cache", "dra4j", "kubectl-1.35",
        "kubectl"));
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator, -1)) {
        if (!dir.isEmpty()) {
          result.add(Path.of(dir, "kubectl"));
        }
      }
    }
    return result.stream().filter(Files::isExecutable).distinct().toList();
  }

  private static Optional<Integer> minorVersion(Path candidate) {
    try {
      Process process = new ProcessBuilder(
          candidate.toString(), "version", "--client", "-o", "json")
          .redirectErrorStream(true)
          .start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        return Optional.empty();
      }
      Matcher matcher = MINOR.matcher(output);
      return matcher.find() ? Optional.of(Integer.parseInt(matcher.group(1))) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * What one kubectl run printed.
   *
   * @param exitCode the exit code
   * @param stdout standard output
   * @param stderr standard error
   */
  record Result(int exitCode, String stdout, String stderr) {

    /** Fails unless kubectl exited 0. */
    Result assertSuccess() {
      if (exitCode != 0) {
        throw new AssertionError("kubectl exited " + exitCode + "\nstdout: " + stdout
            + "\nstderr: " + stderr);
      }
      return this;
    }
  }

  /**
   * Runs kubectl to completion.
   *
   * @param args the arguments, e.g. {@code get deviceclasses -o json}
   * @return exit code and output
   */
  Result run(String... args) {
    try {
      Path out = Files.createTempFile(home, "stdout", ".txt");
      Path err = Files.createTempFile(home, "stderr", ".txt");
      Process process = builder(args)
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish in "
            + TIMEOUT_SECONDS + " s");
      }
      return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /**
   * Starts kubectl without waiting, for commands that run until stopped ({@code get -w}).
   *
   * @param args the arguments
   * @return the process; the caller destroys it
   */
  Process start(String... args) {
    try {
      return builder(args).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ProcessBuilder builder(String... args) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
    Map<String, String> environment = builder.environment();
    Map<String, String> kept = new LinkedHashMap<>();
    for (String name : List.of("PATH", "TZ", "LANG")) {
      if (environment.containsKey(name)) {
        kept.put(name, environment.get(name));
      }
    }
    environment.clear();
    environment.putAll(kept);
    environment.put("HOME", home.toString());
    environment.put("KUBECONFIG", kubeconfig.toString());
    return builder;
  }
}
