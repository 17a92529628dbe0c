package io.github.dra4j.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No two families of a scrape share a HELP text: a registry from {@link PrometheusRegistries}
 * with timers, a distribution summary and the JVM meters, in both
 * formats, checked by the Prometheus project's Python parser and by {@code promtool check
 * metrics}. A plain registry, for contrast, repeats each timer's HELP on its {@code _max} gauge.
 */
class DistinctHelpTest {

  private static final Path PYTHON = Path.of("/usr/bin/python3");

  @TempDir
  Path directory;

  @Test
  void aPlainRegistryRepeatsEachTimersHelpOnItsMaxGauge() {
    PrometheusMeterRegistry plain = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    register(plain);

    assertThat(repeatedHelp(plain.scrape())).containsKey("How long a test call took");
  }

  @Test
  void everyFamilyHasAHelpTextOfItsOwnInBothFormats() throws Exception {
    PrometheusMeterRegistry registry = PrometheusRegistries.create();
    register(registry);
    try (JvmMetrics jvm = JvmMetrics.bindTo(registry)) {
      String text = registry.scrape();
      String openMetrics = registry.scrape(PrometheusEndpoint.OPENMETRICS_CONTENT_TYPE);

      assertThat(repeatedHelp(text)).isEmpty();
      assertThat(repeatedHelp(openMetrics)).isEmpty();
      assertThat(text).contains("# HELP dra4j_test_call_seconds How long a test call took\n",
          "# HELP dra4j_test_call_seconds_max Largest single value recorded in the last few"
              + " minutes: How long a test call took\n",
          "jvm_memory_used_bytes", "jvm_threads_live_threads",
          "jvm_classes_loaded_classes", "process_uptime_seconds", "process_files_open_files");
      assertThat(parse("text", text)).contains("dra4j_test_call_seconds_max",
          "dra4j_test_size_bytes_max", "process_files_open_files");
      assertThat(parse("openmetrics", openMetrics)).contains("dra4j_test_call_seconds_max");
      promtoolAccepts(text);
    }
  }

  private static void register(PrometheusMeterRegistry registry) {
    Timer.builder("dra4j.test.call").description("How long a test call took")
        .tag("result", "success").register(registry).record(Duration.ofMillis(3));
    Timer.builder("dra4j.test.call").description("How long a test call took")
        .tag("result", "error").register(registry);
    DistributionSummary.builder("dra4j.test.size").baseUnit("bytes")
        .description("How large a test body was").register(registry).record(100);
  }

  /** HELP texts that more than one family has, with those families. */
  static Map<String, List<String>> repeatedHelp(String scrape) {
    Map<String, List<String>> byText = Arrays.stream(scrape.split("\n"))
        .filter(line -> line.startsWith("# HELP "))
        .map(line -> line.substring("# HELP ".length()).split(" ", 2))
        .collect(Collectors.groupingBy(parts -> parts.length > 1 ? parts[1] : "",
            Collectors.mapping(parts -> parts[0], Collectors.toList())));
    byText.values().removeIf(families -> families.size() < 2);
    return byText;
  }

  /** The family names as the Prometheus Python client's parser reads the scrape. */
  private List<String> parse(String format, String scrape) throws Exception {
    assumeThat(Files.isExecutable(PYTHON)).as("needs %s", PYTHON).isTrue();
    Path script = directory.resolve("parse_metrics.py");
    try (InputStream in = getClass().getResourceAsStream("/parse_metrics.py")) {
      Files.write(script, in.readAllBytes());
    }
    Process process = new ProcessBuilder(PYTHON.toString(), script.toString(), format).start();
    process.getOutputStream().write(scrape.getBytes(StandardCharsets.UTF_8));
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assumeThat(err).as("python3-prometheus-client is installed")
        .doesNotContain("No module named 'prometheus_client'");
    assertThat(process.exitValue()).as("the parser refused the scrape: %s", err).isZero();
    return Arrays.stream(out.split("\"family\": \"")).skip(1)
        .map(rest -> rest.substring(0, rest.indexOf('"'))).distinct().toList();
  }

  /** {@code promtool check metrics} passes the scrape: no lint problem, no repeated HELP. */
  private void promtoolAccepts(String scrape) throws Exception {
    Optional<Path> promtool = Arrays.stream(System.getenv().getOrDefault("PATH", "")
        .split(File.pathSeparator)).map(dir -> Path.of(dir, "promtool"))
        .filter(Files::isExecutable).findFirst();
    assumeThat(promtool).as("promtool on the PATH (apt-get install prometheus)").isPresent();
    Path input = Files.writeString(directory.resolve("scrape.txt"), scrape);
    Process process = new ProcessBuilder(promtool.get().toString(), "check", "metrics")
        .redirectInput(input.toFile()).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("promtool check metrics:%n%s", out).isZero();
  }

}
