package io.github.dra4j.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

class PrometheusEndpointTest {

  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir
  Path directory;
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(
      PrometheusConfig.DEFAULT);
  private PrometheusEndpoint endpoint;

  @BeforeEach
  void start() throws IOException {
    endpoint = PrometheusEndpoint.builder(registry)
        .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).start();
  }

  @AfterEach
  void stop() {
    endpoint.close();
  }

  @Test
  void theTextFormatIsServedAndParsesWithPrometheusOwnParser() throws Exception {
    Counter prepared = Counter.builder("dra4j.test.claims.prepared").tag("driver_name", "gpu")
        .tag("result", "success").register(registry);
    Timer duration = Timer.builder("dra4j.test.duration").register(registry);

    prepared.increment(3);
    duration.record(25, TimeUnit.MILLISECONDS);
    HttpResponse<String> first = scrape(null);
    prepared.increment();
    HttpResponse<String> second = scrape(null);

    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.headers().firstValue("Content-Type"))
        .hasValue(PrometheusEndpoint.TEXT_CONTENT_TYPE);
    assertThat(value(parse("text", first.body()), "dra4j_test_claims_prepared_total",
        Map.of("driver_name", "gpu", "result", "success"))).isEqualTo(3.0);
    assertThat(value(parse("text", second.body()), "dra4j_test_claims_prepared_total",
        Map.of("driver_name", "gpu", "result", "success"))).isEqualTo(4.0);
    assertThat(value(parse("text", second.body()), "dra4j_test_duration_seconds_count",
        Map.of())).isEqualTo(1.0);
  }

  @Test
  void openMetricsIsServedWhenTheScraperAsksForIt() throws Exception {
    Counter.builder("dra4j.test.writes").register(registry).increment(2);

    HttpResponse<String> answer = scrape("application/openmetrics-text;version=1.0.0,"
        + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1");

    assertThat(answer.headers().firstValue("Content-Type"))
        .hasValue(PrometheusEndpoint.OPENMETRICS_CONTENT_TYPE);
    assertThat(answer.body()).endsWith("# EOF\n");
    assertThat(value(parse("openmetrics", answer.body()), "dra4j_test_writes_total", Map.of()))
        .isEqualTo(2.0);
  }

  @Test
  void jvmMetricsAreThereOnlyWhenBound() throws Exception {
    assertThat(scrape(null).body()).doesNotContain("jvm_memory_used_bytes");

    try (JvmMetrics ignored = JvmMetrics.bindTo(registry)) {
      String body = scrape(null).body();

      assertThat(body).contains("jvm_memory_used_bytes", "jvm_threads_live_threads",
          "process_cpu_usage", "process_uptime_seconds");
      assertThat(parse("text", body)).isNotEmpty();
    }
  }

  @Test
  void otherPathsAndMethodsAreRefused() throws Exception {
    HttpResponse<String> elsewhere = CLIENT.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + endpoint.port() + "/metricsx")).build(),
        HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> post = CLIENT.send(HttpRequest.newBuilder(uri())
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(elsewhere.statusCode()).isEqualTo(404);
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
  }

  private URI uri() {
    return URI.create("http://127.0.0.1:" + endpoint.port() + endpoint.path());
  }

  private HttpResponse<String> scrape(String accept) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri()).timeout(Duration.ofSeconds(10));
    if (accept != null) {
      request.header("Accept", accept);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The samples as the Prometheus Python client's parser reads them. */
  private List<Map<String, Object>> parse(String format, String scrape) throws Exception {
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
    assumeThat(err).as("python3-prometheus-client is installed (apt; .ci/run installs it)")
        .doesNotContain("No module named 'prometheus_client'");
    assertThat(process.exitValue()).as("the parser refused the scrape: %s", err).isZero();
    return JsonMapper.builder().build().readValue(out, new TypeReference<>() {});
  }

  private static double value(List<Map<String, Object>> samples, String name,
      Map<String, String> labels) {
    return samples.stream()
        .filter(s -> s.get("name").equals(name) && s.get("labels").equals(labels))
        .mapToDouble(s -> ((Number) s.get("value")).doubleValue())
        .findFirst().orElseThrow(() -> new AssertionError("no sample " + name + labels
            + " in " + samples));
  }

  /**
   * One connection that sent a single byte must not block the scrapes of
   * others, and is closed at its deadline.
   */
  @Test
  void scrapesAreAnsweredWhileAConnectionHasSentOneByte() throws Exception {
    Counter.builder("dra4j.test.stall").register(registry).increment();
    try (java.net.Socket stalled = new java.net.Socket(InetAddress.getLoopbackAddress(),
        endpoint.port())) {
      stalled.getOutputStream().write('G');
      stalled.getOutputStream().flush();
      Thread.sleep(200);
      for (int i = 0; i < 3; i++) {
        // A new client each time: a new connection, as Prometheus opens after an error.
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1))
            .version(HttpClient.Version.HTTP_1_1).build();
        long start = System.nanoTime();
        HttpResponse<String> scrape = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
            .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains("dra4j_test_stall_total 1.0");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1000);
      }
    }
  }
}
