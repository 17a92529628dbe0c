package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real Helm 4 on the chart in {@code deployments/helm/dra4j-gpu-driver}. Helm is found in
 * {@code DRA4J_HELM}, else in {@code ~/.cache/dra4j/helm-4/helm} where {@code
 * src/test/helm/install-helm.sh} puts it; without it the calling test is skipped, never failed.
 */
final class Helm {

  /** The chart's directory, relative to the module. */
  static final Path CHART = moduleDirectory().resolve("deployments/helm/dra4j-gpu-driver");

  /** The namespace the tests install into unless a test says otherwise. */
  static final String NAMESPACE = "dra4j-system";

  /** The release name the tests use unless a test says otherwise. */
  static final String RELEASE = "gpu";

  private static final long TIMEOUT_SECONDS = 60;

  private final Path binary;

  private Helm(Path binary) {
    this.binary = binary;
  }

  /**
   * Finds Helm 4, or skips the calling test saying why.
   *
   * @return a runner
   */
  static Helm require() {
    Optional<Path> found = Located.BINARY;
    assumeTrue(found.isPresent(), Helm::missingReason);
    return new Helm(found.get());
  }

  /** Looks for Helm once per JVM, on first use. */
  private static final class Located {
    static final Optional<Path> BINARY = locate();
  }

  private static String missingReason() {
    String env = System.getenv("DRA4J_HELM");
    if (env != null && !env.isBlank()) {
      return "DRA4J_HELM=" + env + " is not a Helm 4 executable; chart tests skipped";
    }
    return "Helm 4 not found in DRA4J_HELM or " + cachePath()
        + "; run examples/gpu-driver/src/test/helm/install-helm.sh to run the chart tests";
  }

  private static Optional<Path> locate() {
    String env = System.getenv("DRA4J_HELM");
    Path candidate = env != null && !env.isBlank() ? Path.of(env) : cachePath();
    if (!Files.isExecutable(candidate)) {
      return Optional.empty();
    }
    Result version = new Helm(candidate).run(List.of("version", "--template", "{{.Version}}"));
    return version.exitCode() == 0 && version.stdout().startsWith("v4.")
        ? Optional.of(candidate)
        : Optional.empty();
  }

  private static Path cachePath() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path cache = xdg != null && !xdg.isBlank()
        ? Path.of(xdg)
        : Path.of(System.getProperty("user.home"), ".cache");
    return cache.resolve("dra4j/helm-4/helm");
  }

  private static Path moduleDirectory() {
    String basedir = System.getProperty("basedir");
    Path dir = basedir != null ? Path.of(basedir) : Path.of("").toAbsolutePath();
    if (!Files.isDirectory(dir.resolve("deployments/helm"))
        && Files.isDirectory(dir.resolve("examples/gpu-driver/deployments/helm"))) {
      dir = dir.resolve("examples/gpu-driver");
    }
    return dir.toAbsolutePath().normalize();
  }

  /** What one Helm command did. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {

    /** The command line and its output, for failure messages. */
    String describe() {
      return String.join(" ", command) + "\nexit code " + exitCode + "\nstderr:\n" + stderr
          + "\nstdout:\n" + (stdout.length() > 4000 ? stdout.substring(0, 4000) + "..." : stdout);
    }
  }

  /**
   * Runs Helm with the arguments; fails the test if it does not end in time.
   *
   * @param args the arguments after {@code helm}
   * @return its exit code and output
   */
  Result run(List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(args);
    try {
      Path out = Files.createTempFile("helm-out", ".txt");
      Path err = Files.createTempFile("helm-err", ".txt");
      try {
        ProcessBuilder builder = new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
        // No repository or plugin state of the user's Helm leaks into the tests.
        Path home = Files.createTempDirectory("helm-home");
        builder.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
        builder.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
        builder.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new AssertionError(String.join(" ", command) + " did not end in "
              + TIMEOUT_SECONDS + " s");
        }
        Result result = new Result(command, process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
        deleteTree(home);
        return result;
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted running " + command, e);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /**
   * {@code helm template} of the chart, which must succeed without a word on stderr.
   *
   * @param namespace the release namespace
   * @param values extra arguments: {@code --set ...}, {@code --values ...}
   * @return the rendered objects
   */
  Rendered templateIn(String namespace, String... values) {
    Result result = templateResult(namespace, values);
    assertThat(result.exitCode()).as("helm template should succeed:\n%s", result.describe())
        .isZero();
    assertThat(result.stderr()).as("helm template should print no warning:\n%s",
        result.describe()).isBlank();
    return Rendered.parse(result.stdout(), String.join(" ", result.command()));
  }

  /**
   * {@code helm template} of the chart in the default test namespace.
   *
   * @param values extra arguments: {@code --set ...}, {@code --values ...}
   * @return the rendered objects
   */
  Rendered template(String... values) {
    return templateIn(NAMESPACE, values);
  }

  /**
   * {@code helm template}, whatever its outcome.
   *
   * @param namespace the release namespace
   * @param values extra arguments
   * @return the result
   */
  Result templateResult(String namespace, String... values) {
    List<String> args = new ArrayList<>(List.of("template", RELEASE, CHART.toString(),
        "--namespace", namespace));
    args.addAll(List.of(values));
    return run(args);
  }

  /**
   * {@code helm lint --strict} of the chart, whatever its outcome.
   *
   * @param namespace the release namespace
   * @param values extra arguments
   * @return the result
   */
  Result lint(String namespace, String... values) {
    List<String> args = new ArrayList<>(List.of("lint", CHART.toString(), "--strict",
        "--namespace", namespace));
    args.addAll(List.of(values));
    return run(args);
  }

  /**
   * Writes values to a temporary file for {@code --values}.
   *
   * @param yaml the values
   * @return {@code --values} and the file
   */
  static String[] valuesFile(String yaml) {
    try {
      Path file = Files.createTempFile("values", ".yaml");
      file.toFile().deleteOnExit();
      Files.writeString(file, yaml, StandardCharsets.UTF_8);
      return new String[] {"--values", file.toString()};
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
