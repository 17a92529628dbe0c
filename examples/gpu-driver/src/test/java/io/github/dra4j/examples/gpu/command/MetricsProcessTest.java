package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import io.github.dra4j.testing.tls.IssuedCertificate;
import io.github.dra4j.testing.tls.KeyEncoding;
import io.github.dra4j.testing.tls.TestCertificateAuthority;
import io.github.dra4j.testing.tls.TlsSecretVolume;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The meters an operator scrapes from the driver's processes, each run as the charts run it, from
 * its environment alone: the kubelet plugin's and the webhook's pages carry the JVM's meters, the
 * webhook's its reviews by resource and decision, and both pass the Prometheus project's Python
 * parser and {@code promtool check metrics} with no HELP text on two families. A webhook whose
 * certificate or key cannot be used ends at once with status 2 and one line naming the variable
 * and the path, no stack trace.
 */
class MetricsProcessTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final Pattern METRICS = Pattern.compile("metrics on port (\\d+)");
  private static final Pattern LISTENING = Pattern
      .compile("Admission webhook for gpu\\.example\\.com listening on port (\\d+)");
  private static final List<String> JVM_METERS = List.of("jvm_memory_used_bytes",
      "jvm_threads_live_threads", "jvm_classes_loaded_classes", "process_uptime_seconds",
      "process_files_open_files", "process_cpu_seconds_total", "jvm_memory_max_bytes");

  @TempDir
  Path root;
  private final List<Process> processes = new ArrayList<>();
  private InMemoryApiServer server;

  @AfterEach
  void stop() throws InterruptedException {
    for (Process process : processes) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
  }

  private Process start(Path output, String command, String... environment) throws IOException {
    List<String> line = new ArrayList<>(DriverCommands.onTestClassPath());
    line.add(command);
    ProcessBuilder builder = new ProcessBuilder(line);
    builder.environment().keySet().removeIf(name -> name.equals("POD_UID")
        || name.equals("NODE_NAME") || name.startsWith("GPU_") || name.startsWith("TLS_")
        || name.endsWith("_PORT") || name.equals("NUM_DEVICES") || name.equals("DRIVER_NAME"));
    for (int i = 0; i < environment.length; i += 2) {
      builder.environment().put(environment[i], environment[i + 1]);
    }
    Process process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    processes.add(process);
    return process;
  }

  @Test
  void theWebhookServesItsReviewsAndTheJvmsMeters() throws Exception {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    TlsSecretVolume volume = TlsSecretVolume.create(root.resolve("tls"));
    volume.update(ca.issue("webhook"));
    Path output = root.resolve("webhook.out");
    Process process = start(output, "webhook", "DRIVER_NAME", "gpu.example.com",
        "TLS_CERT_FILE", volume.certificateFile().toString(),
        "TLS_PRIVATE_KEY_FILE", volume.keyFile().toString(), "WEBHOOK_PORT", "0",
        "METRICS_PORT", "0");
    int port = await().atMost(WAIT).until(() -> number(LISTENING, output),
        p -> p > 0 || !process.isAlive());
    assertThat(port).as("output:%n%s", read(output)).isPositive();
    HttpClient client = HttpClient.newBuilder().sslContext(ca.clientContext()).build();
    HttpResponse<String> reviewed = client.send(HttpRequest.newBuilder(URI.create(
        "https://localhost:" + port + "/validate-resource-claim-parameters"))
        .header("Content-Type", "application/json").timeout(WAIT)
        .POST(HttpRequest.BodyPublishers.ofString(claimReview())).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(reviewed.body()).contains("\"allowed\":true");

    String scrape = await().atMost(WAIT).until(() -> scrape(number(METRICS, output)),
        page -> page.contains("dra4j_webhook_reviews_duration_seconds_count{decision="
            + "\"allowed\",driver_name=\"gpu.example.com\",resource=\"resourceclaims\"} 1"));

    assertThat(scrape).contains(JVM_METERS).contains("resource=\"resourceclaimtemplates\"");
    checkPage(scrape);
  }

  @Test
  void theKubeletPluginServesTheJvmsMeters() throws Exception {
    server = InMemoryApiServer.builder().build().start();
    server.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1")
        .endMetadata().build()).create();
    Path output = root.resolve("plugin.out");
    Process process = start(output, "kubelet-plugin", "KUBECONFIG",
        server.writeKubeconfig(root.resolve("kubeconfig")).toString(), "NODE_NAME", "node-1",
        "POD_UID", UUID.randomUUID().toString(),
        "KUBELET_REGISTRAR_DIRECTORY_PATH", dir("registry"),
        "KUBELET_PLUGINS_DIRECTORY_PATH", dir("plugins"), "CDI_ROOT", dir("cdi"),
        "HEALTHCHECK_PORT", "0", "METRICS_PORT", "0", "NUM_DEVICES", "2");
    int metrics = await().atMost(WAIT).until(() -> number(METRICS, output),
        p -> p > 0 || !process.isAlive());
    assertThat(metrics).as("output:%n%s", read(output)).isPositive();

    String scrape = scrape(metrics);

    assertThat(scrape).contains(JVM_METERS)
        .contains("dra4j_plugin_claims_prepared_total", "dra4j_plugin_claims_unprepared_total");
    checkPage(scrape);
  }

  @Test
  void aMissingCertificateOrAMismatchedKeyEndsTheWebhookInOneLine() throws Exception {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    TlsSecretVolume volume = TlsSecretVolume.create(root.resolve("tls"));
    IssuedCertificate issued = ca.issue("webhook");
    volume.update(issued);
    Path missing = root.resolve("absent/tls.crt");
    Path first = root.resolve("missing.out");
    Process process = start(first, "webhook", "TLS_CERT_FILE", missing.toString(),
        "TLS_PRIVATE_KEY_FILE", volume.keyFile().toString(), "WEBHOOK_PORT", "0");

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("output:%n%s", read(first)).isEqualTo(2);
    assertThat(lastLine(first)).isEqualTo("gpu-driver webhook: TLS_CERT_FILE=\"" + missing
        + "\": no such file");
    assertThat(read(first)).doesNotContain("Exception", "\tat ");

    Path otherKey = root.resolve("other.key");
    Files.writeString(otherKey, ca.issue("other").keyPem(KeyEncoding.PKCS8));
    Path second = root.resolve("mismatch.out");
    process = start(second, "webhook", "TLS_CERT_FILE", volume.certificateFile().toString(),
        "TLS_PRIVATE_KEY_FILE", otherKey.toString(), "WEBHOOK_PORT", "0");

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("output:%n%s", read(second)).isEqualTo(2);
    assertThat(lastLine(second)).startsWith("gpu-driver webhook: private key"
        + " TLS_PRIVATE_KEY_FILE=\"" + otherKey + "\" does not belong to the certificate in"
        + " TLS_CERT_FILE=\"" + volume.certificateFile() + "\"");
    assertThat(read(second)).doesNotContain("Exception", "\tat ");
  }

  private String dir(String name) throws IOException {
    return Files.createDirectories(root.resolve(name)).toString();
  }

  /** The page passes both of Prometheus' checks and no HELP text is on two families. */
  private void checkPage(String scrape) throws Exception {
    Map<String, List<String>> repeated = Arrays.stream(scrape.split("\n"))
        .filter(line -> line.startsWith("# HELP "))
        .map(line -> line.substring("# HELP ".length()).split(" ", 2))
        .collect(Collectors.groupingBy(parts -> parts.length > 1 ? parts[1] : "",
            Collectors.mapping(parts -> parts[0], Collectors.toList())));
    repeated.values().removeIf(families -> families.size() < 2);
    assertThat(repeated).as("HELP texts on more than one family").isEmpty();
    assertThat(parse(scrape)).isNotEmpty();
    promtoolAccepts(scrape);
  }

  private static String scrape(int port) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(WAIT).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  /** The samples as the Prometheus Python client's parser reads them. */
  private List<Map<String, Object>> parse(String scrape) throws Exception {
    assumeThat(Files.isExecutable(PYTHON)).as("needs %s", PYTHON).isTrue();
    Path script = root.resolve("parse_metrics.py");
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

  private void promtoolAccepts(String scrape) throws Exception {
    Optional<Path> promtool = Arrays.stream(System.getenv().getOrDefault("PATH", "")
        .split(File.pathSeparator)).map(dir -> Path.of(dir, "promtool"))
        .filter(Files::isExecutable).findFirst();
    assumeThat(promtool).as("promtool on the PATH (apt-get install prometheus)").isPresent();
    Path input = Files.writeString(Files.createTempFile(root, "scrape", ".txt"), scrape);
    Process process = new ProcessBuilder(promtool.get().toString(), "check", "metrics")
        .redirectInput(input.toFile()).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("promtool check metrics:%n%s", out).isZero();
  }

  /** A CREATE review of a ResourceClaim with a valid GpuConfig. */
  private static String claimReview() {
    return """
        {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
          "uid": "%s",
          "kind": {"group": "resource.k8s.io", "version": "v1", "kind": "ResourceClaim"},
          "resource": {"group": "resource.k8s.io", "version": "v1",
            "resource": "resourceclaims"},
          "name": "gpus", "namespace": "default", "operation": "CREATE",
          "userInfo": {"username": "kubernetes-admin"},
          "object": {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": "gpus", "namespace": "default"},
            "spec": {"devices": {
              "requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}],
              "config": [{"requests": ["gpu"], "opaque": {"driver": "gpu.example.com",
                "parameters": {"apiVersion": "gpu.resource.dra4j.io/v1alpha1",
                  "kind": "GpuConfig", "sharing": {"strategy": "TimeSlicing"}}}}]}}},
          "oldObject": null, "dryRun": false}}
        """.formatted(UUID.randomUUID());
  }

  private static int number(Pattern pattern, Path output) throws IOException {
    Matcher matcher = pattern.matcher(read(output));
    return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
  }

  private static String lastLine(Path output) throws IOException {
    List<String> lines = Files.readAllLines(output);
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
