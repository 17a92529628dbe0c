package io.github.dra4j.webhook;

import static io.github.dra4j.webhook.Reviews.entry;
import static io.github.dra4j.webhook.Reviews.gpuConfig;
import static io.github.dra4j.webhook.WebhookFixture.readAll;
import static io.github.dra4j.webhook.WebhookFixture.writeAscii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.core.metrics.MetricNames;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class AdmissionWebhookServerTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String JSON_TYPE = "application/json";
  private static final String VALID = Reviews.review("v1", Reviews.Kind.CLAIM,
      "[" + entry("", gpuConfig("\"sharing\": {\"strategy\": \"TimeSlicing\"}")) + "]");
  private static final String INVALID = Reviews.review("v1beta1", Reviews.Kind.TEMPLATE,
      "[" + entry("", gpuConfig("\"sharing\": {\"strategy\": \"Fast\"}")) + "]");

  @TempDir
  Path directory;
  private WebhookFixture fixture;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<AdmissionWebhookServer> servers = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    fixture = new WebhookFixture(directory);
  }

  @AfterEach
  void tearDown() {
    servers.forEach(AdmissionWebhookServer::close);
  }

  private AdmissionWebhookServerBuilder builder() {
    return AdmissionWebhookServer.builder(
        AdmissionReviewHandler.of(SharingConfig.DRIVER, SharingConfig.scheme()))
        .tls(fixture.certificateFile, fixture.keyFile)
        .bindAddress("127.0.0.1")
        .port(0)
        .meterRegistry(registry);
  }

  private AdmissionWebhookServer start(AdmissionWebhookServerBuilder builder) {
    AdmissionWebhookServer server = builder.start();
    servers.add(server);
    return server;
  }

  @Test
  void reviewsAreAnsweredOverHttps() throws Exception {
    AdmissionWebhookServer server = start(builder());

    HttpResponse<String> allowed = fixture.post(server, JSON_TYPE, VALID);
    HttpResponse<String> denied = fixture.post(server, "application/json; charset=utf-8",
        INVALID);

    assertThat(allowed.statusCode()).isEqualTo(200);
    assertThat(allowed.headers().firstValue("Content-Type")).hasValue(JSON_TYPE);
    assertThat(JSON.readTree(allowed.body()).path("response").path("allowed").asBoolean())
        .isTrue();
    assertThat(denied.statusCode()).isEqualTo(200);
    JsonNode response = JSON.readTree(denied.body()).path("response");
    assertThat(response.path("uid").asString())
        .isEqualTo(JSON.readTree(INVALID).path("request").path("uid").asString());
    assertThat(response.path("allowed").asBoolean()).isFalse();
    assertThat(response.path("status").path("message").asString())
        .contains("spec.spec.devices.config[0].opaque.parameters.sharing.strategy: "
            + "unknown value \"Fast\"");
    assertThat(fixture.get(server, "/readyz").statusCode()).isEqualTo(200);
    awaitTimerCount("allowed", 1);
    awaitTimerCount("denied", 1);
    awaitTimerCount("invalid", 0);
  }

  @Test
  void requestsThatAreNotReviewsGetTheirHttpStatus() throws Exception {
    AdmissionWebhookServer server = start(builder());

    HttpResponse<String> yaml = fixture.post(server, "application/yaml", VALID);
    HttpResponse<String> none = fixture.post(server, "", VALID);
    HttpResponse<String> garbage = fixture.post(server, JSON_TYPE, "{\"kind\": \"Pod\"}");
    HttpResponse<String> get = fixture.get(server, AdmissionWebhookServerBuilder.DEFAULT_PATH);
    HttpResponse<String> elsewhere = fixture.get(server, "/validate-resource-claim-parameters/x");
    HttpResponse<String> root = fixture.get(server, "/");

    assertThat(yaml.statusCode()).isEqualTo(415);
    assertThat(yaml.body()).isEqualTo("Content-Type \"application/yaml\" is not supported, "
        + "want application/json\n");
    assertThat(none.statusCode()).isEqualTo(415);
    assertThat(garbage.statusCode()).isEqualTo(400);
    assertThat(garbage.body()).isEqualTo("not an admission.k8s.io/v1 AdmissionReview: "
        + "apiVersion (none) and kind \"Pod\" are not admission.k8s.io/v1 AdmissionReview\n");
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
    assertThat(elsewhere.statusCode()).isEqualTo(404);
    assertThat(root.statusCode()).isEqualTo(404);
    awaitTimerCount("invalid", 5);
    // The server still answers reviews on the same connections.
    assertThat(fixture.post(server, JSON_TYPE, VALID).statusCode()).isEqualTo(200);
  }

  @Test
  void aTenMegabyteBodyIsRefusedWith413AndTheConnectionStaysUsable() throws Exception {
    AdmissionWebhookServer server = start(builder());
    String tenMegabytes = "{\"kind\": \"" + "x".repeat(10 * 1024 * 1024) + "\"}";

    HttpResponse<String> answer = fixture.post(server, JSON_TYPE, tenMegabytes);

    assertThat(answer.statusCode()).isEqualTo(413);
    assertThat(answer.body()).isEqualTo("request body of " + tenMegabytes.length()
        + " bytes is over the limit of " + AdmissionWebhookServerBuilder.DEFAULT_MAX_REQUEST_BYTES
        + " bytes\n");
    assertThat(fixture.post(server, JSON_TYPE, VALID).statusCode()).isEqualTo(200);
  }

  @Test
  void aChunkedBodyOverTheLimitIsRefusedWith413() throws Exception {
    AdmissionWebhookServer server = start(builder().maxRequestBytes(64 * 1024));
    byte[] body = ("{\"kind\": \"" + "x".repeat(10 * 1024 * 1024) + "\"}")
        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
        WebhookFixture.uri(server, AdmissionWebhookServerBuilder.DEFAULT_PATH))
        .header("Content-Type", JSON_TYPE)
        // A stream of unknown length goes out chunked.
        .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(
            () -> new java.io.ByteArrayInputStream(body)))
        .build();

    HttpResponse<String> answer = fixture.client.send(request,
        HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(413);
    assertThat(answer.body()).isEqualTo("request body of " + body.length
        + " bytes is over the limit of 65536 bytes\n");
  }

  @Test
  void aBodyFarOverTheLimitGetsItsConnectionClosed() throws Exception {
    AdmissionWebhookServer server = start(builder());

    try (SSLSocket socket = fixture.connect(server)) {
      writeAscii(socket.getOutputStream(), "POST " + AdmissionWebhookServerBuilder.DEFAULT_PATH
          + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
          + "Content-Length: 1000000000\r\n\r\n");
      byte[] head = socket.getInputStream().readNBytes(12);

      assertThat(new String(head, java.nio.charset.StandardCharsets.US_ASCII))
          .isEqualTo("HTTP/1.1 413");
    }
  }

  @Test
  void aClientThatStallsIsCutOffAtTheRequestTimeoutAndOthersAreServed() throws Exception {
    AdmissionWebhookServer server = start(builder().requestTimeout(Duration.ofMillis(500))
        .threads(1));

    try (SSLSocket socket = fixture.connect(server)) {
      writeAscii(socket.getOutputStream(), "POST " + AdmissionWebhookServerBuilder.DEFAULT_PATH
          + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
          + "Content-Length: 1000\r\n\r\n{\"kind\": ");
      long start = System.nanoTime();
      InputStream in = socket.getInputStream();
      String answer;
      try {
        answer = readAll(in);
      } catch (IOException e) {
        answer = "";
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(answer).doesNotContain("200");
      assertThat(millis).isBetween(300L, 10_000L);
    }
    // The one handler thread is free again.
    assertThat(fixture.post(server, JSON_TYPE, VALID).statusCode()).isEqualTo(200);
    awaitTimerCount("invalid", 1);
  }

  @Test
  void aRotatedCertificateIsServedToNewConnectionsWithoutARestart() throws Exception {
    AdmissionWebhookServer server = start(builder()
        .certificateCheckInterval(Duration.ofMillis(100)));
    String before = fixture.servedCertificate(server).getSubjectX500Principal().getName();
    // A connection opened before the rotation, kept alive by the client.
    assertThat(fixture.post(server, JSON_TYPE, VALID).statusCode()).isEqualTo(200);

    fixture.rotate(TestCertificates.Algorithm.EC, TestCertificates.KeyEncoding.PKCS8,
        "second");

    assertThat(before).isEqualTo("CN=first");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    String after = before;
    while (after.equals(before) && System.nanoTime() < deadline) {
      Thread.sleep(50);
      after = fixture.servedCertificate(server).getSubjectX500Principal().getName();
    }
    assertThat(after).isEqualTo("CN=second");
    assertThat(server.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=second");
    assertThat(fixture.post(server, JSON_TYPE, VALID).statusCode()).isEqualTo(200);
    assertThat(reloads("success")).isEqualTo(1);

    // A key that does not belong to the certificate (a writer between its two files) is not
    // used; the current certificate stays until a good pair arrives.
    Path stray = directory.resolve("stray.key");
    Files.writeString(stray, TestCertificates.keyPem(
        fixture.certificates.issue(TestCertificates.Algorithm.EC, "stray").key(),
        TestCertificates.KeyEncoding.PKCS8));
    Files.move(stray, fixture.keyFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (reloads("error") == 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(reloads("error")).isEqualTo(1);
    Thread.sleep(300);
    assertThat(reloads("error")).as("the same bad files are reported once").isEqualTo(1);
    assertThat(fixture.servedCertificate(server).getSubjectX500Principal().getName())
        .isEqualTo("CN=second");
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({"RSA, PKCS8", "RSA, TRADITIONAL", "EC, PKCS8", "EC, TRADITIONAL"})
  void everyKeyEncodingCertManagerWritesIsServed(TestCertificates.Algorithm algorithm,
      TestCertificates.KeyEncoding encoding) throws Exception {
    fixture.rotate(algorithm, encoding, "encoded");

    AdmissionWebhookServer server = start(builder());

    assertThat(Files.readString(fixture.keyFile))
        .startsWith(encoding == TestCertificates.KeyEncoding.PKCS8 ? "-----BEGIN PRIVATE KEY-----"
            : "-----BEGIN " + algorithm + " PRIVATE KEY-----");
    assertThat(fixture.servedCertificate(server).getPublicKey().getAlgorithm())
        .isEqualTo(algorithm.name());
    assertThat(fixture.post(server, JSON_TYPE, VALID).statusCode()).isEqualTo(200);
  }

  @Test
  void unusableTlsFilesFailTheStartNamingTheFile() throws Exception {
    Path missing = directory.resolve("missing.crt");
    assertThatThrownBy(() -> builder().tls(missing, fixture.keyFile).start())
        .isInstanceOf(WebhookStartException.class)
        .hasMessage("certificateFile=\"" + missing + "\": no such file");
    assertThatThrownBy(() -> builder().tls(fixture.certificateFile, directory).start())
        .isInstanceOf(WebhookStartException.class)
        .hasMessage("keyFile=\"" + directory + "\": a directory, not a regular file; not opened");

    Files.writeString(fixture.keyFile, TestCertificates.keyPem(
        fixture.certificates.issue(TestCertificates.Algorithm.RSA, "other").key(),
        TestCertificates.KeyEncoding.PKCS8));
    assertThatThrownBy(() -> builder().start())
        .isInstanceOf(WebhookStartException.class)
        .hasMessage("private key keyFile=\"" + fixture.keyFile + "\" does not belong to the"
            + " certificate in certificateFile=\"" + fixture.certificateFile + "\" (CN=first)");

    Files.writeString(fixture.keyFile, """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        AAAA
        -----END ENCRYPTED PRIVATE KEY-----
        """);
    assertThatThrownBy(() -> builder().start())
        .hasMessage("keyFile=\"" + fixture.keyFile + "\" holds an encrypted private key; the"
            + " webhook needs it unencrypted, as cert-manager writes it");

    Files.writeString(fixture.certificateFile, "not a certificate");
    assertThatThrownBy(() -> builder().start())
        .hasMessage("certificateFile=\"" + fixture.certificateFile
            + "\" holds no PEM CERTIFICATE block");
    assertThatThrownBy(() -> AdmissionWebhookServer.builder(
        AdmissionReviewHandler.of(SharingConfig.DRIVER, SharingConfig.scheme())).start())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("tls(certificateFile, keyFile) is required");
  }

  @Test
  void optionsAreCheckedWhenSet() {
    assertThatThrownBy(() -> builder().port(70000))
        .hasMessage("port must be between 0 and 65535, got 70000");
    assertThatThrownBy(() -> builder().path("/readyz"))
        .hasMessage("path must be an absolute path other than /, /readyz and /livez, "
            + "got \"/readyz\"");
    assertThatThrownBy(() -> builder().maxRequestBytes(10))
        .hasMessage("maxRequestBytes must be at least 1024, got 10");
    assertThatThrownBy(() -> builder().requestTimeout(Duration.ZERO))
        .hasMessage("requestTimeout must be positive, got PT0S");
  }

  @Test
  void concurrentReviewsGetTheirOwnAnswers() throws Exception {
    AdmissionWebhookServer server = start(builder());
    ExecutorService clients = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        results.add(clients.submit(() -> {
          int checked = 0;
          for (int i = 0; i < 40; i++) {
            boolean valid = (i % 2) == 0;
            String body = valid ? Reviews.review("v1beta2", Reviews.Kind.CLAIM, "[]")
                : Reviews.review("v1", Reviews.Kind.CLAIM,
                    "[" + entry("", gpuConfig("\"sharing\": {\"strategy\": \"Fast\"}")) + "]");
            HttpResponse<String> answer = fixture.post(server, JSON_TYPE, body);
            JsonNode response = JSON.readTree(answer.body()).path("response");
            assertThat(response.path("uid").asString())
                .isEqualTo(JSON.readTree(body).path("request").path("uid").asString());
            assertThat(response.path("allowed").asBoolean()).isEqualTo(valid);
            checked++;
          }
          return checked;
        }));
      }
      for (Future<Integer> result : results) {
        assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(40);
      }
    } finally {
      clients.shutdownNow();
    }
    awaitTimerCount("allowed", 160);
    awaitTimerCount("denied", 160);
  }

  @Test
  void closingAnswersRequestsInFlightAndReportsNotReady() throws Exception {
    AdmissionWebhookServer server = start(builder().shutdownGracePeriod(Duration.ofSeconds(10)));
    String slow = Reviews.review("v1", Reviews.Kind.CLAIM, "[" + entry("",
        "{\"apiVersion\": \"" + SharingConfig.API_VERSION + "\", \"kind\": \"SlowConfig\", "
            + "\"millis\": 1500}")
        + "]");
    assertThat(fixture.get(server, "/readyz").statusCode()).isEqualTo(200);
    ExecutorService background = Executors.newFixedThreadPool(2);
    try {
      // A connection open before the stop, as a kubelet's probe or the API server keeps one.
      SSLSocket open = fixture.connect(server);
      Future<HttpResponse<String>> inFlight = background
          .submit(() -> fixture.post(server, JSON_TYPE, slow));
      Thread.sleep(500);
      Future<?> closing = background.submit(server::close);
      Thread.sleep(200);

      assertThat(server.isReady()).isFalse();
      writeAscii(open.getOutputStream(), """
          GET /readyz HTTP/1.1\r
          Host: localhost\r
          Connection: close\r
          \r
          """);
      assertThat(readAll(open.getInputStream())).startsWith("HTTP/1.1 503 ");
      assertThatThrownBy(
          () -> new java.net.Socket(InetAddress.getLoopbackAddress(), server.port()).close())
          .as("no new connection is accepted while stopping")
          .isInstanceOf(ConnectException.class);
      assertThat(inFlight.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      closing.get(20, TimeUnit.SECONDS);
      server.awaitTermination();
    } finally {
      background.shutdownNow();
    }
    assertThatThrownBy(
        () -> new java.net.Socket(InetAddress.getLoopbackAddress(), server.port()).close())
        .as("the port is closed").isInstanceOf(ConnectException.class);
  }

  /**
   * Waits for the review timer to show a count: the server records a request just after the
   * client has its answer.
   */
  private void awaitTimerCount(String decision, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (timerCount(decision) != expected && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(timerCount(decision)).as("reviews with decision %s", decision)
        .isEqualTo(expected);
  }

  /** The reviews with a decision, of every resource. */
  private long timerCount(String decision) {
    return registry.get(MetricNames.WEBHOOK_REVIEWS).tag(MetricNames.DECISION, decision)
        .tag(MetricNames.DRIVER_NAME, SharingConfig.DRIVER).timers().stream()
        .mapToLong(io.micrometer.core.instrument.Timer::count).sum();
  }

  private double reloads(String result) {
    return registry.get(MetricNames.WEBHOOK_CERTIFICATE_RELOADS)
        .tag(MetricNames.RESULT, result).counter().count();
  }
}
