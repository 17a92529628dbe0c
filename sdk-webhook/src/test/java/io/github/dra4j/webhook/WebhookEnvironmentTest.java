package io.github.dra4j.webhook;

import static io.github.dra4j.webhook.Reviews.entry;
import static io.github.dra4j.webhook.Reviews.gpuConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link AdmissionWebhookServerBuilder#fromEnvironment(Map)}: the Deployment's variables set the
 * TLS files, the port and the metrics endpoint, a builder call wins over them, and a malformed or
 * missing variable or an unusable file fails the start in one line naming it. The metrics
 * endpoint serves the reviews by resource and decision and the JVM's meters, which the Prometheus
 * project's Python parser and {@code promtool check metrics} accept, no two families with one
 * HELP text.
 */
class WebhookEnvironmentTest {

  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final String JSON_TYPE = "application/json";

  @TempDir
  Path directory;
  private WebhookFixture fixture;
  private final List<AdmissionWebhookServer> servers = new ArrayList<>();

  @BeforeEach
  void fixture() throws Exception {
    fixture = new WebhookFixture(directory);
  }

  @AfterEach
  void tearDown() {
    servers.forEach(AdmissionWebhookServer::close);
  }

  private AdmissionWebhookServerBuilder builder() {
    return AdmissionWebhookServer.builder(
        AdmissionReviewHandler.of(SharingConfig.DRIVER, SharingConfig.scheme()))
        .bindAddress("127.0.0.1");
  }

  private Map<String, String> environment(String... more) {
    Map<String, String> env = new HashMap<>(Map.of(
        "TLS_CERT_FILE", fixture.certificateFile.toString(),
        "TLS_PRIVATE_KEY_FILE", fixture.keyFile.toString(),
        "WEBHOOK_PORT", "0", "METRICS_PORT", "0"));
    for (int i = 0; i < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  private AdmissionWebhookServer start(AdmissionWebhookServerBuilder builder) {
    AdmissionWebhookServer server = builder.start();
    servers.add(server);
    return server;
  }

  @Test
  void theEnvironmentConfiguresTheServerAndItsMeters() throws Exception {
    AdmissionWebhookServer server = start(builder().fromEnvironment(environment())
        .jvmMetrics(true));

    assertThat(server.isReady()).isTrue();
    assertThat(fixture.get(server, "/readyz").statusCode()).isEqualTo(200);
    assertThat(fixture.get(server, "/livez").statusCode()).isEqualTo(200);
    assertThat(fixture.post(server, JSON_TYPE, Reviews.review("v1", Reviews.Kind.CLAIM,
        "[" + entry("", gpuConfig("")) + "]")).statusCode()).isEqualTo(200);
    assertThat(fixture.post(server, JSON_TYPE, Reviews.review("v1", Reviews.Kind.TEMPLATE,
        "[" + entry("", gpuConfig("\"sharing\": {\"strategy\": \"Fast\"}")) + "]"))
        .statusCode()).isEqualTo(200);
    assertThat(fixture.post(server, JSON_TYPE, "{\"kind\": \"Pod\"}").statusCode())
        .isEqualTo(400);

    String scrape = awaitScrape(server, "dra4j_webhook_reviews_duration_seconds_count{"
        + "decision=\"invalid\",driver_name=\"gpu.example.com\",resource=\"unknown\"} 1");
    List<Map<String, Object>> samples = parse(scrape);
    assertThat(count(samples, "resourceclaims", "allowed")).isEqualTo(1.0);
    assertThat(count(samples, "resourceclaims", "denied")).isEqualTo(0.0);
    assertThat(count(samples, "resourceclaimtemplates", "denied")).isEqualTo(1.0);
    assertThat(count(samples, "resourceclaimtemplates", "allowed")).isEqualTo(0.0);
    assertThat(count(samples, "unknown", "invalid")).isEqualTo(1.0);
    assertThat(scrape).contains("dra4j_webhook_certificate_reloads_total",
        "jvm_memory_used_bytes", "jvm_threads_live_threads", "jvm_classes_loaded_classes",
        "process_uptime_seconds", "process_files_open_files", "process_cpu_seconds_total");
    assertThat(repeatedHelp(scrape)).isEmpty();
    promtoolAccepts(scrape);
  }

  @Test
  void aBuilderCallWinsOverTheEnvironment() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    AdmissionWebhookServer server = start(builder().port(port)
        .fromEnvironment(environment("WEBHOOK_PORT", "1", "METRICS_PORT", "-1",
            "TLS_CERT_FILE", directory.resolve("elsewhere.crt").toString()))
        .tls(fixture.certificateFile, fixture.keyFile));

    assertThat(server.port()).isEqualTo(port);
    assertThat(server.metricsPort()).as("METRICS_PORT=-1 is off").isEmpty();
  }

  @Test
  void malformedVariablesFailTheStartNamingEach() {
    assertThatThrownBy(() -> builder().fromEnvironment(environment("WEBHOOK_PORT", "https",
        "METRICS_PORT", "-2")).start())
        .isInstanceOf(WebhookStartException.class)
        .hasMessage("WEBHOOK_PORT=\"https\": want a port from 0 to 65535; METRICS_PORT=\"-2\":"
            + " want a port from 0 to 65535, or -1 for none");
    Map<String, String> noTls = environment();
    noTls.remove("TLS_CERT_FILE");
    noTls.put("TLS_PRIVATE_KEY_FILE", "");
    assertThatThrownBy(() -> builder().fromEnvironment(noTls).start())
        .isInstanceOf(WebhookStartException.class)
        .hasMessage("TLS_CERT_FILE is required: the server's certificate chain, a PEM file;"
            + " TLS_PRIVATE_KEY_FILE is required: the server's private key, a PEM file");
  }

  @Test
  void anUnusableTlsFileFailsTheStartInOneLineNamingTheVariable() throws Exception {
    Path missing = directory.resolve("missing.crt");
    assertThatThrownBy(() -> builder().fromEnvironment(environment("TLS_CERT_FILE",
        missing.toString())).start())
        .isInstanceOf(WebhookStartException.class)
        .hasMessage("TLS_CERT_FILE=\"" + missing + "\": no such file");

    Path unreadable = Files.writeString(directory.resolve("unreadable.key"), "secret");
    unreadable.toFile().setReadable(false, false);
    assumeThat(Files.isReadable(unreadable)).as("not root, who reads any file").isFalse();
    assertThatThrownBy(() -> builder().fromEnvironment(environment("TLS_PRIVATE_KEY_FILE",
        unreadable.toString())).start())
        .isInstanceOf(WebhookStartException.class)
        .hasMessage("TLS_PRIVATE_KEY_FILE=\"" + unreadable + "\": cannot read it: permission"
            + " denied");
  }

  @Test
  void aMismatchedKeyOrATakenPortIsNamedByItsVariable() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      assertThatThrownBy(() -> builder().fromEnvironment(environment("METRICS_PORT",
          Integer.toString(taken.getLocalPort()))).start())
          .isInstanceOf(WebhookStartException.class)
          .hasMessageStartingWith("METRICS_PORT=\"" + taken.getLocalPort()
              + "\": cannot listen on ");
      assertThatThrownBy(() -> builder().bindAddress("0.0.0.0").fromEnvironment(environment(
          "WEBHOOK_PORT", Integer.toString(taken.getLocalPort()))).start())
          .isInstanceOf(WebhookStartException.class)
          .hasMessageStartingWith("WEBHOOK_PORT=\"" + taken.getLocalPort()
              + "\": cannot listen on 0.0.0.0:" + taken.getLocalPort() + ": ");
    }
    Files.writeString(fixture.keyFile, TestCertificates.keyPem(
        fixture.certificates.issue(TestCertificates.Algorithm.EC, "other").key(),
        TestCertificates.KeyEncoding.PKCS8));
    assertThatThrownBy(() -> builder().fromEnvironment(environment()).start())
        .isInstanceOf(WebhookStartException.class)
        .hasMessage("private key TLS_PRIVATE_KEY_FILE=\"" + fixture.keyFile + "\" does not"
            + " belong to the certificate in TLS_CERT_FILE=\"" + fixture.certificateFile
            + "\" (CN=first)");
  }

  /** Scrapes until the page has a line: the server records a review just after answering. */
  private String awaitScrape(AdmissionWebhookServer server, String line) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    URI uri = URI.create("http://127.0.0.1:" + server.metricsPort().orElseThrow() + "/metrics");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    String page;
    do {
      page = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    } while (!page.contains(line) && System.nanoTime() < deadline);
    assertThat(page).contains(line);
    return page;
  }

  private static double count(List<Map<String, Object>> samples, String resource,
      String decision) {
    Map<String, String> labels = Map.of("driver_name", SharingConfig.DRIVER, "resource",
        resource, "decision", decision);
    return samples.stream()
        .filter(s -> s.get("name").equals("dra4j_webhook_reviews_duration_seconds_count")
            && s.get("labels").equals(labels))
        .mapToDouble(s -> ((Number) s.get("value")).doubleValue())
        .findFirst().orElseThrow(() -> new AssertionError("no series " + labels));
  }

  /** HELP texts that more than one family has, with those families. */
  private static Map<String, List<String>> repeatedHelp(String scrape) {
    Map<String, List<String>> byText = Arrays.stream(scrape.split("\n"))
        .filter(line -> line.startsWith("# HELP "))
        .map(line -> line.substring("# HELP ".length()).split(" ", 2))
        .collect(Collectors.groupingBy(parts -> parts.length > 1 ? parts[1] : "",
            Collectors.mapping(parts -> parts[0], Collectors.toList())));
    byText.values().removeIf(families -> families.size() < 2);
    return byText;
  }

  /** The samples as the Prometheus Python client's parser reads them. */
  private List<Map<String, Object>> parse(String scrape) throws Exception {
    assumeThat(Files.isExecutable(PYTHON)).as("needs %s", PYTHON).isTrue();
    Path script = directory.resolve("parse_metrics.py");
    try (InputStream in = getClass().getResourceAsStream("/parse_metrics.py")) {
      Files.write(script, in.readAllBytes());
    }
    Process process = new ProcessBuilder(PYTHON.toString(), script.toString(), "text").start();
    process.getOutputStream().write(scrape.getBytes(StandardCharsets.UTF_8));
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assumeThat(err).as("python3-prometheus-client is installed")
        .doesNotContain("No module named 'prometheus_client'");
    assertThat(process.exitValue()).as("the parser refused the scrape: %s", err).isZero();
    return JsonMapper.builder().build().readValue(out, new TypeReference<>() {});
  }

  /** {@code promtool check metrics} passes the scrape, lint included. */
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
