package io.github.dra4j.webhook;

import static io.github.dra4j.webhook.Reviews.entry;
import static io.github.dra4j.webhook.Reviews.gpuConfig;
import static io.github.dra4j.webhook.WebhookFixture.writeAscii;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that stall: connections that send three bytes of a TLS handshake
 * and nothing more, and connections that send part of their headers (slowloris), must hold no
 * thread that answers reviews: while sixteen of each are open, reviews and {@code /readyz} on new
 * connections are answered within a second, and the stalled connections are closed once the
 * request timeout has passed. A body declared over the limit is answered 413 before it is sent.
 */
class WebhookStallTest {

  private static final String VALID = Reviews.review("v1", Reviews.Kind.CLAIM,
      "[" + entry("", gpuConfig("\"sharing\": {\"strategy\": \"TimeSlicing\"}")) + "]");
  /** A TLS record header of a handshake, the first three bytes of a ClientHello. */
  private static final byte[] HANDSHAKE_START = {0x16, 0x03, 0x01};

  @TempDir
  Path directory;
  private WebhookFixture fixture;
  private AdmissionWebhookServer server;
  private final List<Socket> stalled = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    fixture = new WebhookFixture(directory);
    server = AdmissionWebhookServer.builder(
        AdmissionReviewHandler.of(SharingConfig.DRIVER, SharingConfig.scheme()))
        .tls(fixture.certificateFile, fixture.keyFile)
        .bindAddress("127.0.0.1").port(0)
        .requestTimeout(Duration.ofMillis(1500))
        .start();
  }

  @AfterEach
  void tearDown() throws IOException {
    for (Socket socket : stalled) {
      socket.close();
    }
    server.close();
  }

  @Test
  void stalledTlsHandshakesHoldNoThreadAndAreClosedAtTheDeadline() throws Exception {
    for (int i = 0; i < 16; i++) {
      Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
      socket.getOutputStream().write(HANDSHAKE_START);
      socket.getOutputStream().flush();
      stalled.add(socket);
    }

    assertAnsweredWithinASecond();
    assertClosedByServer(stalled);
  }

  @Test
  void stalledHeadersHoldNoThreadAndAreClosedAtTheDeadline() throws Exception {
    for (int i = 0; i < 16; i++) {
      SSLSocket socket = fixture.connect(server);
      writeAscii(socket.getOutputStream(), "POST " + AdmissionWebhookServerBuilder.DEFAULT_PATH
          + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: appl");
      stalled.add(socket);
    }

    assertAnsweredWithinASecond();
    assertClosedByServer(stalled);
  }

  @Test
  void aBodyDeclaredOverTheLimitIsAnswered413BeforeItIsSent() throws Exception {
    try (SSLSocket socket = fixture.connect(server)) {
      socket.setSoTimeout(3000);
      // 5 MiB: over the 4 MiB limit, under the 16 MiB the server reads and drops.
      writeAscii(socket.getOutputStream(), "POST " + AdmissionWebhookServerBuilder.DEFAULT_PATH
          + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
          + "Content-Length: " + 5 * 1024 * 1024 + "\r\n\r\n{\"kind\": \"");
      long start = System.nanoTime();
      String head = new String(socket.getInputStream().readNBytes(12),
          StandardCharsets.US_ASCII);

      assertThat(head).isEqualTo("HTTP/1.1 413");
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1000);
    }
  }

  /** Reviews and readiness on new connections, each answered within a second. */
  private void assertAnsweredWithinASecond() throws Exception {
    for (int i = 0; i < 3; i++) {
      // A new client each time, so each request needs a new connection and handshake.
      HttpClient client = HttpClient.newBuilder().sslContext(fixture.clientContext)
          .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(1)).build();
      long start = System.nanoTime();
      HttpResponse<String> review = client.send(HttpRequest.newBuilder(
          WebhookFixture.uri(server, AdmissionWebhookServerBuilder.DEFAULT_PATH))
          .header("Content-Type", "application/json").timeout(Duration.ofSeconds(1))
          .POST(HttpRequest.BodyPublishers.ofString(VALID)).build(),
          HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> ready = client.send(HttpRequest.newBuilder(
          URI.create("https://localhost:" + server.port() + "/readyz"))
          .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.ofString());

      assertThat(review.statusCode()).isEqualTo(200);
      assertThat(review.body()).contains("\"allowed\":true");
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2000);
    }
  }

  /** Every socket sees the server close it within a few seconds of the request timeout. */
  private static void assertClosedByServer(List<Socket> sockets) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
    for (Socket socket : sockets) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      socket.setSoTimeout((int) Math.max(1, left));
      InputStream in = socket instanceof SSLSocket ssl ? ssl.getInputStream()
          : socket.getInputStream();
      boolean closed;
      try {
        while (in.read() >= 0) {
          // whatever the server sends before it closes
        }
        closed = true;
      } catch (SocketTimeoutException e) {
        closed = false;
      } catch (IOException e) {
        closed = true; // reset or a TLS alert: closed either way
      }
      assertThat(closed).as("the server closed the stalled connection").isTrue();
    }
  }
}
