package io.github.dra4j.examples.gpu.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.github.dra4j.testing.tls.IssuedCertificate;
import io.github.dra4j.testing.tls.TestCertificateAuthority;
import io.github.dra4j.testing.tls.TlsSecretVolume;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code gpu-driver webhook} as its own process, configured only by the environment the chart's
 * Deployment sets, its certificate in a Secret volume laid out as the kubelet mounts
 * cert-manager's. Over HTTPS that a client verifies against the issuing CA and the name {@code
 * localhost}, it allows a ResourceClaim with a valid GpuConfig and echoes the review's uid,
 * denies an invalid one (gpu-test6) with code 422 naming the field, answers {@code /readyz},
 * serves a rotated certificate to new connections without a restart, and ends on a real SIGTERM
 * with the JVM's status 143; a malformed {@code WEBHOOK_PORT} stops the start with status 2.
 */
class WebhookProcessTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Pattern LISTENING = Pattern
      .compile("Admission webhook for gpu\\.example\\.com listening on port (\\d+)");
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Set<String> VARIABLES = Set.of("DRIVER_NAME", "TLS_CERT_FILE",
      "TLS_PRIVATE_KEY_FILE", "WEBHOOK_PORT");

  @TempDir
  Path root;
  private Process process;

  @AfterEach
  void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * The command that runs the driver's command line: here its main class on the test class path,
   * {@code ShadedWebhookIT} runs the jar the image ships instead.
   */
  List<String> driverCommand() {
    return DriverCommands.onTestClassPath();
  }

  private Process start(Path output, String... environment) throws IOException {
    List<String> command = new ArrayList<>(driverCommand());
    command.add("webhook");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(VARIABLES::contains);
    for (int i = 0; i < environment.length; i += 2) {
      builder.environment().put(environment[i], environment[i + 1]);
    }
    return builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
  }

  /** The chart's environment (templates/webhook.yaml) with the volume's files and a free port. */
  private Process startAsTheChartDoes(TlsSecretVolume volume, Path output, String port)
      throws IOException {
    return start(output, "DRIVER_NAME", "gpu.example.com",
        "TLS_CERT_FILE", volume.certificateFile().toString(),
        "TLS_PRIVATE_KEY_FILE", volume.keyFile().toString(), "WEBHOOK_PORT", port);
  }

  @Test
  void reviewsClaimsOverVerifiedHttpsReloadsItsCertificateAndEndsOnSigterm() throws Exception {
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    TlsSecretVolume volume = TlsSecretVolume.create(root.resolve("tls"));
    IssuedCertificate first = ca.issue("first");
    volume.update(first);
    Path output = root.resolve("webhook.out");
    process = startAsTheChartDoes(volume, output, "0");

    int port = await().atMost(WAIT).until(() -> port(output), p -> p > 0 || !process.isAlive());
    assertThat(port).as("listening; output:%n%s", read(output)).isPositive();
    HttpClient client = HttpClient.newBuilder().sslContext(ca.clientContext())
        .connectTimeout(Duration.ofSeconds(10)).build();
    URI base = URI.create("https://localhost:" + port);

    HttpResponse<String> ready = client.send(HttpRequest.newBuilder(base.resolve("/readyz"))
        .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(ready.statusCode()).as("output:%n%s", read(output)).isEqualTo(200);
    assertThat(ready.sslSession().orElseThrow().getPeerCertificates()[0])
        .isEqualTo(first.certificate());

    // gpu-test4's two configurations: time-sliced with a Long interval, MPS at 50 % of threads.
    String valid = UUID.randomUUID().toString();
    JsonNode allowed = post(client, base, review(valid, """
        {"requests": ["ts-gpu"], "opaque": {"driver": "gpu.example.com", "parameters": {
          "apiVersion": "gpu.resource.dra4j.io/v1alpha1", "kind": "GpuConfig",
          "sharing": {"strategy": "TimeSlicing", "timeSlicingConfig": {"interval": "Long"}}}}},
        {"requests": ["mps-gpu"], "opaque": {"driver": "gpu.example.com", "parameters": {
          "apiVersion": "gpu.resource.dra4j.io/v1alpha1", "kind": "GpuConfig",
          "sharing": {"strategy": "MPS",
            "mpsConfig": {"defaultActiveThreadPercentage": 50}}}}}"""), output);
    assertThat(allowed.path("apiVersion").asString()).isEqualTo("admission.k8s.io/v1");
    assertThat(allowed.path("kind").asString()).isEqualTo("AdmissionReview");
    assertThat(allowed.path("response").path("uid").asString()).isEqualTo(valid);
    assertThat(allowed.path("response").path("allowed").isBoolean()).isTrue();
    assertThat(allowed.path("response").path("allowed").asBoolean()).as("%s", allowed).isTrue();

    // gpu-test6's: MPS settings under the TimeSlicing strategy.
    String invalid = UUID.randomUUID().toString();
    JsonNode denied = post(client, base, review(invalid, """
        {"opaque": {"driver": "gpu.example.com", "parameters": {
          "apiVersion": "gpu.resource.dra4j.io/v1alpha1", "kind": "GpuConfig",
          "sharing": {"strategy": "TimeSlicing",
            "mpsConfig": {"defaultActiveThreadPercentage": 50}}}}}"""), output);
    JsonNode response = denied.path("response");
    assertThat(response.path("uid").asString()).isEqualTo(invalid);
    assertThat(response.path("allowed").isBoolean()).isTrue();
    assertThat(response.path("allowed").asBoolean()).as("%s", denied).isFalse();
    assertThat(response.path("status").path("code").asInt()).isEqualTo(422);
    assertThat(response.path("status").path("reason").asString()).isEqualTo("Invalid");
    assertThat(response.path("status").path("message").asString()).contains(
        "spec.devices.config[0].opaque.parameters.sharing.mpsConfig: only with strategy MPS, "
            + "not TimeSlicing");
    assertThat(response.path("status").path("details").path("causes").get(0).path("field")
        .asString()).isEqualTo("spec.devices.config[0].opaque.parameters.sharing.mpsConfig");

    // cert-manager renews: the kubelet swaps the volume's contents; new connections get them.
    IssuedCertificate second = ca.issue("second");
    volume.update(second);
    await().atMost(WAIT).until(() -> !process.isAlive()
        || second.certificate().equals(served(ca, port)));
    assertThat(process.isAlive()).as("rotated; output:%n%s", read(output)).isTrue();

    process.destroy(); // SIGTERM

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    // 143: the JVM's status after SIGTERM, once the shutdown hook has closed the server
    assertThat(process.exitValue()).as("output:%n%s", read(output)).isEqualTo(143);
    assertThat(read(output)).contains("webhook certificate reloaded: CN=second",
        "admission webhook stopped");
  }

  @ParameterizedTest
  @ValueSource(strings = {"notaport", "70000"})
  void aMalformedPortStopsTheStartNamingTheVariableAndItsValue(String port) throws Exception {
    TlsSecretVolume volume = TlsSecretVolume.create(root.resolve("tls"));
    volume.update(TestCertificateAuthority.create().issue("unused"));
    Path output = root.resolve("bad.out");
    process = startAsTheChartDoes(volume, output, port);

    assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("output:%n%s", read(output)).isEqualTo(2);
    assertThat(read(output)).contains("gpu-driver webhook: WEBHOOK_PORT=\"" + port
        + "\": want a port from 0 to 65535").doesNotContain("listening on port");
  }

  /** A CREATE review of a resource.k8s.io/v1 ResourceClaim, as the API server sends it. */
  private static String review(String uid, String configs) {
    return """
        {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
          "uid": "%s",
          "kind": {"group": "resource.k8s.io", "version": "v1", "kind": "ResourceClaim"},
          "resource": {"group": "resource.k8s.io", "version": "v1",
            "resource": "resourceclaims"},
          "requestKind": {"group": "resource.k8s.io", "version": "v1",
            "kind": "ResourceClaim"},
          "requestResource": {"group": "resource.k8s.io", "version": "v1",
            "resource": "resourceclaims"},
          "name": "gpus", "namespace": "default", "operation": "CREATE",
          "userInfo": {"username": "kubernetes-admin", "groups": ["system:masters"]},
          "object": {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": "gpus", "namespace": "default"},
            "spec": {"devices": {
              "requests": [
                {"name": "ts-gpu", "exactly": {"deviceClassName": "gpu.example.com"}},
                {"name": "mps-gpu", "exactly": {"deviceClassName": "gpu.example.com"}}],
              "config": [%s]}}},
          "oldObject": null, "dryRun": false,
          "options": {"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions"}}}
        """.formatted(uid, configs);
  }

  private static JsonNode post(HttpClient client, URI base, String review, Path output)
      throws Exception {
    HttpResponse<String> answer = client.send(HttpRequest.newBuilder(
        base.resolve("/validate-resource-claim-parameters"))
        .header("Content-Type", "application/json").timeout(WAIT)
        .POST(HttpRequest.BodyPublishers.ofString(review)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as("%s%noutput:%n%s", answer.body(), read(output))
        .isEqualTo(200);
    return JSON.readTree(answer.body());
  }

  /** The certificate a new connection to {@code localhost} gets, its name verified. */
  private static X509Certificate served(TestCertificateAuthority ca, int port)
      throws Exception {
    SSLContext context = ca.clientContext();
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory()
        .createSocket("localhost", port)) {
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      socket.setSSLParameters(parameters);
      socket.setSoTimeout((int) WAIT.toMillis());
      socket.startHandshake();
      return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }
  }

  private static int port(Path output) throws IOException {
    Matcher matcher = LISTENING.matcher(read(output));
    return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
