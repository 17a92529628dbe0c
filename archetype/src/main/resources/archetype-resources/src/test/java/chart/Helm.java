package ${package}.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs the Helm named by {@code DRA4J_HELM} (Helm 3.8 or later, or Helm 4) on the chart. Without
 * it, the calling test is skipped with the reason, never failed: the chart tests need a binary
 * the build does not download.
 */
final class Helm {

  /** The chart, relative to the project. */
  static final Path CHART = Path.of("deployments", "helm", "${artifactId}").toAbsolutePath();

  /** The namespace the tests render into. */
  static final String NAMESPACE = "drivers";

  private static final Pattern DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---\\s*\\R");

  private final Path binary;
  private final KubernetesSerialization yaml = new KubernetesSerialization();

  private Helm(Path binary) {
    this.binary = binary;
  }

  /** What one Helm command did. */
  record Result(int exitCode, String stdout, String stderr) {}

  /**
   * Finds Helm, or skips the calling test saying why.
   *
   * @return the runner
   */
  static Helm require() {
    String variable = System.getenv("DRA4J_HELM");
    assumeTrue(variable != null && !variable.isBlank(), "DRA4J_HELM is not set: set it to a"
        + " Helm 3.8+ or Helm 4 binary to run the chart tests");
    Path path = Path.of(variable.trim());
    assumeTrue(Files.isExecutable(path), "DRA4J_HELM=" + variable + " is not an executable;"
        + " chart tests skipped");
    return new Helm(path);
  }

  /**
   * {@code helm template} of the chart, which must succeed without a warning.
   *
   * @param values extra arguments such as {@code --set webhook.enabled=true}
   * @return the rendered objects, read by fabric8 (kinds it does not model as generic ones)
   */
  List<HasMetadata> template(String... values) {
    Result result = templateResult(values);
    assertThat(result.exitCode()).as("helm template failed:%n%s", result.stderr()).isZero();
    assertThat(result.stderr()).as("helm template warned").isBlank();
    List<HasMetadata> objects = new ArrayList<>();
    for (String document : DOCUMENT_SEPARATOR.split(result.stdout())) {
      if (document.lines().allMatch(line -> line.isBlank() || line.startsWith("# "))) {
        continue; // nothing but Helm's "# Source:" comment
      }
      objects.add((HasMetadata) yaml.unmarshal(document));
    }
    return objects;
  }

  /**
   * {@code helm template} of the chart, whatever its outcome.
   *
   * @param values extra arguments
   * @return the result
   */
  Result templateResult(String... values) {
    List<String> args = new ArrayList<>(List.of("template", "driver", CHART.toString(),
        "--namespace", NAMESPACE));
    args.addAll(List.of(values));
    return run(args);
  }

  /**
   * {@code helm lint --strict} of the chart.
   *
   * @return the result
   */
  Result lint() {
    return run(List.of("lint", "--strict", CHART.toString(), "--namespace", NAMESPACE));
  }

  private Result run(List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(args);
    try {
      Path home = Files.createTempDirectory("helm-home");
      try {
        ProcessBuilder builder = new ProcessBuilder(command)
            .redirectOutput(home.resolve("out").toFile())
            .redirectError(home.resolve("err").toFile());
        // None of the user's Helm repositories, plugins or cache leaks into the tests.
        builder.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
        builder.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
        builder.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new AssertionError(String.join(" ", command) + " did not end in 60 s");
        }
        return new Result(process.exitValue(),
            Files.readString(home.resolve("out"), StandardCharsets.UTF_8),
            Files.readString(home.resolve("err"), StandardCharsets.UTF_8));
      } finally {
        try (Stream<Path> files = Files.walk(home)) {
          for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(file);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted running " + command, e);
    }
  }
}
