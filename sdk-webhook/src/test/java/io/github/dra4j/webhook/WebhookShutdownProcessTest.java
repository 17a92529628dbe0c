package io.github.dra4j.webhook;

import static io.github.dra4j.webhook.Reviews.entry;
import static io.github.dra4j.webhook.WebhookFixture.readAll;
import static io.github.dra4j.webhook.WebhookFixture.writeAscii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real SIGTERM to a webhook process ({@link GateWebhookChild}, configured by its environment)
 * while a review is in flight over real HTTPS: readiness turns 503 on a connection already open,
 * no new connection is accepted, the review in flight is answered, then the process ends with the
 * JVM's status 143 after {@code awaitTermination} has returned to {@code main}. A review that
 * outlasts the grace period does not hold the process: its connection is closed and the process
 * ends.
 */
class WebhookShutdownProcessTest {

  private static final Pattern PORTS = Pattern.compile("PORT (\\d+) METRICS (\\d+)");
  private static final long WAIT_SECONDS = 60;

  @TempDir
  Path directory;
  private WebhookFixture fixture;
  private Process process;
  private Path output;
  private int port;

  @BeforeEach
  void fixture() throws Exception {
    fixture = new WebhookFixture(directory);
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void sigtermDuringAReviewStopsAcceptingAnswersItAndExits() throws Exception {
    start(30_000);
    SSLSocket probe = connect();
    Path started = directory.resolve("started");
    Path release = directory.resolve("release");
    SSLSocket review = sendGateReview(started, release);
    awaitFile(started);

    process.destroy(); // SIGTERM

    awaitOutput("admission webhook stopping");
    writeAscii(probe.getOutputStream(), """
        GET /readyz HTTP/1.1\r
        Host: localhost\r
        Connection: close\r
        \r
        """);
    assertThat(readAll(probe.getInputStream())).as("readiness while draining")
        .startsWith("HTTP/1.1 503 ");
    awaitRefused();
    assertThat(process.isAlive()).as("waits for the review in flight; output:%n%s", output())
        .isTrue();

    Files.writeString(release, "go");

    String answer = readAll(review.getInputStream());
    assertThat(answer).startsWith("HTTP/1.1 200 ").contains("\"allowed\":true");
    assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("output:%n%s", output()).isEqualTo(143);
    assertThat(output()).contains("admission webhook stopped", "MAIN DONE")
        .doesNotContain("still in flight", "Exception");
  }

  @Test
  void aReviewThatOutlastsTheGracePeriodDoesNotHoldTheProcess() throws Exception {
    start(1_000);
    Path started = directory.resolve("started");
    SSLSocket review = sendGateReview(started, directory.resolve("never"));
    awaitFile(started);

    process.destroy(); // SIGTERM

    assertThat(process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("output:%n%s", output()).isEqualTo(143);
    assertThat(readAll(review.getInputStream())).as("closed unanswered").isEmpty();
    assertThat(output()).contains("admission reviews still in flight after 1000 ms",
        "admission webhook stopped", "MAIN DONE");
  }

  private void start(long graceMillis) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(ChildWebhook.CHART_FLAGS);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(GateWebhookChild.class.getName());
    command.add(Long.toString(graceMillis));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("TLS_CERT_FILE", fixture.certificateFile.toString());
    builder.environment().put("TLS_PRIVATE_KEY_FILE", fixture.keyFile.toString());
    builder.environment().put("WEBHOOK_PORT", "0");
    builder.environment().put("METRICS_PORT", "0");
    output = directory.resolve("webhook.out");
    process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (System.nanoTime() < deadline && process.isAlive()) {
      Matcher ports = PORTS.matcher(output());
      if (ports.find()) {
        port = Integer.parseInt(ports.group(1));
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the webhook did not start:\n" + output());
  }

  private SSLSocket connect() throws IOException {
    SSLSocket socket = (SSLSocket) fixture.clientContext.getSocketFactory()
        .createSocket("localhost", port);
    socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
    socket.startHandshake();
    return socket;
  }

  /** Posts a claim review whose configuration is a {@link GateWebhookChild.GateConfig}. */
  private SSLSocket sendGateReview(Path started, Path release) throws IOException {
    String body = Reviews.review("v1", Reviews.Kind.CLAIM, "[" + entry("",
        "{\"apiVersion\": \"" + SharingConfig.API_VERSION + "\", \"kind\": \"GateConfig\", "
            + "\"started\": \"" + started + "\", \"release\": \"" + release + "\"}")
        + "]");
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    SSLSocket socket = connect();
    writeAscii(socket.getOutputStream(), "POST " + AdmissionWebhookServerBuilder.DEFAULT_PATH
        + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + "Connection: close\r\nContent-Length: " + bytes.length + "\r\n\r\n");
    socket.getOutputStream().write(bytes);
    socket.getOutputStream().flush();
    return socket;
  }

  private void awaitFile(Path file) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (!Files.exists(file) && System.nanoTime() < deadline && process.isAlive()) {
      Thread.sleep(20);
    }
    assertThat(file).as("output:%n%s", output()).exists();
  }

  private void awaitOutput(String text) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (!output().contains(text) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(output()).contains(text);
  }

  /** Waits until a new connection is refused: the listening socket closes just after the log. */
  private void awaitRefused() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (System.nanoTime() < deadline) {
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
        Thread.sleep(20);
      } catch (ConnectException refused) {
        return;
      }
    }
    assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close())
        .as("no new connection while stopping").isInstanceOf(ConnectException.class);
  }

  private String output() throws IOException {
    return Files.exists(output) ? Files.readString(output, StandardCharsets.ISO_8859_1) : "";
  }
}
