package io.github.dra4j.webhook;

import static io.github.dra4j.webhook.Reviews.entry;
import static io.github.dra4j.webhook.Reviews.gpuConfig;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile clients against a webhook process that runs with the chart's JVM flags ({@code
 * -Xss256k -Xmx64m}): a flood of connections is bounded and reviews
 * are still answered; parameters nested deeper than the limits and quantities of a million
 * digits are refused at once with a clear message; what a client sent reaches the log escaped
 * and truncated; and an {@link Error} in a review ends the process with status 70.
 */
class WebhookProcessAttackTest {

  private static final String VALID = Reviews.review("v1", Reviews.Kind.CLAIM,
      "[" + entry("", gpuConfig("\"sharing\": {\"strategy\": \"TimeSlicing\"}")) + "]");

  /** The webhook's default connection limit. */
  private static final int MAX_CONNECTIONS = 512;

  @TempDir
  Path directory;
  private WebhookFixture fixture;

  @BeforeEach
  void setUp() throws Exception {
    fixture = new WebhookFixture(directory);
  }

  @Test
  void aConnectionFloodIsBoundedAndReviewsAreStillAnswered() throws Exception {
    List<Socket> flood = new ArrayList<>();
    try (ChildWebhook webhook = ChildWebhook.start(fixture, directory)) {
      try {
        for (int i = 0; i < 1500; i++) {
          Socket socket = new Socket(InetAddress.getLoopbackAddress(), webhook.port);
          socket.getOutputStream().write(new byte[] {0x16, 0x03, 0x01});
          flood.add(socket);
        }
        // TLS connections that finish their handshake and then wait, 32 at a time.
        java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors
            .newFixedThreadPool(32);
        try {
          List<java.util.concurrent.Future<SSLSocket>> handshakes = new ArrayList<>();
          for (int i = 0; i < 150; i++) {
            handshakes.add(clients.submit(() -> {
              SSLSocket socket = (SSLSocket) fixture.clientContext.getSocketFactory()
                  .createSocket("localhost", webhook.port);
              socket.setSoTimeout(2000);
              try {
                socket.startHandshake();
              } catch (java.io.IOException e) {
                // closed to make room for a newer connection, or no thread to answer it
              }
              return socket;
            }));
          }
          for (java.util.concurrent.Future<SSLSocket> handshake : handshakes) {
            flood.add(handshake.get());
          }
        } finally {
          clients.shutdownNow();
        }

        for (int i = 0; i < 5; i++) {
          long start = System.nanoTime();
          HttpResponse<String> answer = post(webhook.port, VALID, Duration.ofSeconds(1));
          assertThat(answer.statusCode()).isEqualTo(200);
          assertThat(answer.body()).contains("\"allowed\":true");
          assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
              .isLessThan(1500);
        }
        long sockets = webhook.sockets();
        long rss = webhook.rssKib();
        System.out.printf("connection flood: %d client connections; the webhook holds %d "
            + "sockets, RSS %.1f MiB%n", flood.size(), sockets, rss / 1024.0);
        assertThat(sockets).as("sockets the webhook holds")
            .isLessThanOrEqualTo(MAX_CONNECTIONS + 8);
        assertThat(rss).as("resident KiB, the chart's limit is 160 MiB")
            .isLessThan(160 * 1024);
        assertThat(webhook.process.isAlive()).isTrue();
        assertThat(webhook.output()).doesNotContain("OutOfMemoryError");
      } finally {
        for (Socket socket : flood) {
          socket.close();
        }
      }
    }
  }

  @Test
  void deepParametersAndLongQuantitiesAreRefusedAtOnce() throws Exception {
    try (ChildWebhook webhook = ChildWebhook.start(fixture, directory)) {
      long start = System.nanoTime();
      HttpResponse<String> deep = post(webhook.port, review(gpuConfig(
          "\"sharing\": " + nested(450))), Duration.ofSeconds(5));
      HttpResponse<String> deeper = post(webhook.port, review(gpuConfig(
          "\"sharing\": " + nested(70))), Duration.ofSeconds(5));
      HttpResponse<String> digits = post(webhook.port, review("{\"apiVersion\": \""
          + SharingConfig.API_VERSION + "\", \"kind\": \"LimitConfig\", \"memory\": \"1"
          + "0".repeat(1_000_000) + "Gi\"}"), Duration.ofSeconds(5));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(deep.statusCode()).isEqualTo(400);
      assertThat(deep.body()).contains("nesting depth").contains("100");
      assertThat(deeper.statusCode()).isEqualTo(200);
      assertThat(deeper.body()).contains("\"allowed\":false")
          .contains("nested deeper than 64 levels");
      assertThat(digits.statusCode()).isEqualTo(200);
      assertThat(digits.body()).contains("\"allowed\":false")
          .contains("at most 1000 digits, got 1000001");
      assertThat(digits.body().length()).isLessThan(10_000);
      assertThat(millis).isLessThan(5000);
      // No thread is still burning: the next review is answered at once.
      long next = System.nanoTime();
      assertThat(post(webhook.port, VALID, Duration.ofSeconds(1)).statusCode()).isEqualTo(200);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - next)).isLessThan(1000);
      assertThat(webhook.output()).doesNotContain("StackOverflowError");
    }
  }

  @Test
  void clientValuesAreLoggedEscapedAndTruncated() throws Exception {
    try (ChildWebhook webhook = ChildWebhook.start(fixture, directory)) {
      String forged = "v1\nFORGED LINE: admission webhook stopped " + "x".repeat(1024 * 1024);
      HttpResponse<String> answer = post(webhook.port, "{\"apiVersion\": \""
          + forged.replace("\n", "\\n") + "\", \"kind\": \"AdmissionReview\"}",
          Duration.ofSeconds(5));
      assertThat(answer.statusCode()).isEqualTo(400);
      Thread.sleep(500);

      String output = webhook.output();
      assertThat(output).contains("FORGED LINE");
      assertThat(output.lines().filter(line -> line.startsWith("FORGED")).count()).isZero();
      assertThat(output.lines().mapToInt(String::length).max().orElse(0)).isLessThan(5000);
    }
  }

  @Test
  void anErrorInAReviewEndsTheProcessWithStatus70() throws Exception {
    try (ChildWebhook webhook = ChildWebhook.start(fixture, directory)) {
      try {
        post(webhook.port, review("{\"apiVersion\": \"" + SharingConfig.API_VERSION
            + "\", \"kind\": \"FatalConfig\", \"value\": \"boom\"}"), Duration.ofSeconds(5));
      } catch (java.io.IOException e) {
        // the process may end before it answers
      }

      assertThat(webhook.process.waitFor(30, TimeUnit.SECONDS))
          .as("the process ended; output:%n%s", webhook.output()).isTrue();
      assertThat(webhook.process.exitValue()).isEqualTo(70);
      assertThat(webhook.output()).contains("FATAL: ").contains("OutOfMemoryError")
          .contains("exiting with status 70");
    }
  }

  private HttpResponse<String> post(int port, String body, Duration timeout) throws Exception {
    HttpClient client = HttpClient.newBuilder().sslContext(fixture.clientContext)
        .version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
    return client.send(HttpRequest.newBuilder(java.net.URI.create("https://localhost:" + port
        + AdmissionWebhookServerBuilder.DEFAULT_PATH))
        .header("Content-Type", "application/json").timeout(timeout)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String review(String parameters) {
    return Reviews.review("v1", Reviews.Kind.CLAIM, "[" + entry("", parameters) + "]");
  }

  /** Objects nested {@code depth} deep: {"a": {"a": ... {} ...}}. */
  private static String nested(int depth) {
    return "{\"a\": ".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
  }
}
