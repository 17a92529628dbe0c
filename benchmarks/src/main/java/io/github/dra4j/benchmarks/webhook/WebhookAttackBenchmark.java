package io.github.dra4j.benchmarks.webhook;

import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import io.github.dra4j.testing.tls.KeyEncoding;
import io.github.dra4j.testing.tls.TestCertificateAuthority;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * Attacks by hostile clients (slow handshakes, held connections, large and deeply nested
 * reviews) at full size against a webhook process and a metrics endpoint process, each
 * in a JVM with the chart's flags ({@link ServerFootprint#WEBHOOK_FLAGS}, {@link
 * ServerFootprint#PLUGIN_FLAGS}). For each attack, while it runs for a few seconds, a probe posts
 * a valid review (or scrapes) on a new connection every 100 ms with a 2 s timeout; printed: the
 * connections the server holds (its open sockets), the probes answered out of those sent and
 * their latency (p50, p99, max), and the server's resident memory and its peak so far.
 *
 * <p>Attacks: 2,000 connections that send three bytes of a TLS handshake; 500 TLS connections
 * that send part of their headers; 1,000 TLS connections that post a review each and stay open;
 * 16 clients at once posting 3.5 MB reviews of small objects; parameters nested 480 deep and a
 * quantity of a million digits, 4 at once; and, against the metrics endpoint, 1,000 connections
 * that each send one byte.
 *
 * <p>Run: {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.webhook.WebhookAttackBenchmark}. Linux only.
 */
public final class WebhookAttackBenchmark {

  private static final String API_VERSION = "gpu.example.com/v1alpha1";

  private WebhookAttackBenchmark() {}

  /**
   * A memory limit given as a quantity, read as the GPU driver reads its MPS limit.
   *
   * @param memory the limit, a Kubernetes quantity such as {@code 8Gi}
   */
  public record LimitConfig(String memory) implements DeviceConfig<LimitConfig> {
    @Override
    public List<ConfigProblem> validate() {
      return QuantityValue.tryParse(memory).isPresent() ? List.of()
          : List.of(ConfigProblem.of("memory", "not a quantity"));
    }
  }

  /** One probe's figures during an attack. */
  private record Probes(int sent, int answered, List<Double> millis) {
    String format() {
      List<Double> sorted = new ArrayList<>(millis);
      Collections.sort(sorted);
      return String.format(Locale.ROOT, "%d/%d answered, ms p50 %s p99 %s max %s", answered,
          sent, at(sorted, 0.5), at(sorted, 0.99), at(sorted, 1.0));
    }

    private static String at(List<Double> sorted, double p) {
      if (sorted.isEmpty()) {
        return "-";
      }
      int index = (int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1);
      return String.format(Locale.ROOT, "%.1f", sorted.get(Math.max(0, index)));
    }
  }

  /**
   * Runs every attack and prints one line each, or is the attacked server ({@code child ...}).
   *
   * @param args none
   * @throws Exception if a server does not start
   */
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(args);
      return;
    }
    Path directory = Files.createTempDirectory("dra4j-attack");
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    Path certificate = directory.resolve("tls.crt");
    Path key = directory.resolve("tls.key");
    ca.issue("localhost").writeTo(certificate, key, KeyEncoding.PKCS8);
    SSLContext tls = ca.clientContext();
    System.out.printf(Locale.ROOT, "webhook attacks: %d cores, Java %s, servers with the chart's"
        + " JVM flags%n", Runtime.getRuntime().availableProcessors(), Runtime.version());
    attack("stalled TLS handshakes x2000", tls, certificate, key, port -> () -> {
      for (int i = 0; i < 2000; i++) {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.getOutputStream().write(new byte[] {0x16, 0x03, 0x01});
        held.add(socket);
      }
    });
    attack("stalled headers (slowloris) x500", tls, certificate, key,
        port -> () -> parallel(500, 32, () -> {
          SSLSocket socket = handshake(tls, port);
          socket.getOutputStream().write(("POST /validate-resource-claim-parameters HTTP/1.1\r\n"
              + "Host: localhost\r\nContent-Ty").getBytes(StandardCharsets.US_ASCII));
          socket.getOutputStream().flush();
          held.add(socket);
        }));
    attack("1000 clients, a review each, connections kept", tls, certificate, key,
        port -> () -> parallel(1000, 64, () -> {
          SSLSocket socket = handshake(tls, port);
          socket.getOutputStream().write(WebhookBenchmark.request(port));
          socket.getOutputStream().flush();
          held.add(socket);
        }));
    String large = review("{\"apiVersion\": \"" + API_VERSION + "\", \"kind\": \"SharingConfig\","
        + " \"strategy\": \"TimeSlicing\", \"x\": [" + "{\"a\":{}},".repeat(380_000) + "{}]}");
    attack("16 clients x 3.5 MB reviews of small objects", tls, certificate, key,
        port -> () -> parallel(16, 16, () -> post(tls, port, large)));
    String deep = review("{\"apiVersion\": \"" + API_VERSION + "\", \"kind\": \"SharingConfig\","
        + " \"x\": " + "{\"a\": ".repeat(479) + "{}" + "}".repeat(479) + "}");
    String digits = review("{\"apiVersion\": \"" + API_VERSION + "\", \"kind\": \"LimitConfig\","
        + " \"memory\": \"1" + "0".repeat(3_000_000) + "Gi\"}");
    java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();
    attack("4 x parameters 480 deep + 4 x quantity of 3,000,000 digits", tls, certificate, key,
        port -> () -> parallel(8, 8, () -> post(tls, port,
            turn.getAndIncrement() % 2 == 0 ? deep : digits)));
    metricsAttack();
    Files.delete(certificate);
    Files.delete(key);
    Files.delete(directory);
  }

  /** Sockets an attack keeps open until it is over. */
  private static final List<Socket> held = Collections.synchronizedList(new ArrayList<>());

  /** Builds an attack for a port. */
  private interface Attack {
    ThrowingRunnable at(int port);
  }

  /** A step that may fail. */
  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static void attack(String name, SSLContext tls, Path certificate, Path key,
      Attack attack) throws Exception {
    Process server = startChild("webhook", ServerFootprint.WEBHOOK_FLAGS, certificate, key);
    try {
      int port = ChildServer.port(server);
      Supplier<Boolean> probe = () -> {
        try {
          HttpResponse<String> answer = HttpClient.newBuilder().sslContext(tls)
              .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
              .build().send(HttpRequest.newBuilder(URI.create("https://localhost:" + port
                  + "/validate-resource-claim-parameters"))
                  .header("Content-Type", "application/json").timeout(Duration.ofSeconds(2))
                  .POST(HttpRequest.BodyPublishers.ofString(body(port))).build(),
                  HttpResponse.BodyHandlers.ofString());
          return answer.statusCode() == 200 && answer.body().contains("\"allowed\":true");
        } catch (IOException | InterruptedException e) {
          return false;
        }
      };
      run(name, server, attack.at(port), probe);
    } finally {
      server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static void metricsAttack() throws Exception {
    Process server = startChild("metrics", ServerFootprint.PLUGIN_FLAGS, null, null);
    try {
      int port = ChildServer.port(server);
      Supplier<Boolean> probe = () -> {
        try {
          // A new client each time: a new connection, as Prometheus opens after a failure.
          HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(2)).build();
          return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
              + "/metrics")).timeout(Duration.ofSeconds(2)).build(),
              HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        } catch (IOException | InterruptedException e) {
          return false;
        }
      };
      run("metrics: 1000 connections of one byte each", server, () -> {
        for (int i = 0; i < 1000; i++) {
          Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
          socket.getOutputStream().write('G');
          held.add(socket);
        }
      }, probe);
    } finally {
      server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Runs an attack in the background for 8 s while probing; prints the figures. */
  private static void run(String name, Process server, ThrowingRunnable attack,
      Supplier<Boolean> probe) throws Exception {
    Thread attacker = new Thread(() -> {
      try {
        attack.run();
      } catch (Exception e) {
        // the server shed the attacker: that is the point
      }
    }, "attacker");
    attacker.start();
    int sent = 0;
    int answered = 0;
    List<Double> millis = new ArrayList<>();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
    while (System.nanoTime() < end) {
      long start = System.nanoTime();
      sent++;
      if (probe.get()) {
        answered++;
        millis.add((System.nanoTime() - start) / 1e6);
      }
      Thread.sleep(100);
    }
    long sockets = sockets(server.pid());
    long[] memory = ServerFootprint.memoryKib(server.pid());
    attacker.join(TimeUnit.SECONDS.toMillis(30));
    System.out.printf(Locale.ROOT, "%-58s held %4d connections, %s, RSS %.1f MiB (peak %.1f),"
        + " alive %s%n", name, Math.max(0, sockets - 1),
        new Probes(sent, answered, millis)
            .format(),
        memory[0] / 1024.0, memory[1] / 1024.0, server.isAlive());
    synchronized (held) {
      for (Socket socket : held) {
        try {
          socket.close();
        } catch (IOException e) {
          // already closed
        }
      }
      held.clear();
    }
  }

  private static void parallel(int count, int threads, ThrowingRunnable step) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        done.add(pool.submit(() -> {
          step.run();
          return null;
        }));
      }
      for (java.util.concurrent.Future<?> future : done) {
        try {
          future.get();
        } catch (java.util.concurrent.ExecutionException e) {
          // one attacker turned away
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static SSLSocket handshake(SSLContext tls, int port) throws IOException {
    SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("localhost", port);
    socket.setSoTimeout(10_000);
    socket.startHandshake();
    return socket;
  }

  private static void post(SSLContext tls, int port, String body) throws IOException {
    try (SSLSocket socket = handshake(tls, port)) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      out.write(("POST /validate-resource-claim-parameters HTTP/1.1\r\nHost: localhost\r\n"
          + "Content-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.flush();
      socket.getInputStream().readNBytes(12);
    }
  }

  private static String body(int port) {
    String text = new String(WebhookBenchmark.request(port), StandardCharsets.UTF_8);
    return text.substring(text.indexOf("\r\n\r\n") + 4);
  }

  /** A CREATE review of a claim with one configuration of the driver. */
  private static String review(String parameters) {
    String text = body(0);
    int config = text.indexOf("\"config\":[") + 10;
    int end = text.indexOf("]}},\"status\"");
    return text.substring(0, config) + "{\"requests\":[],\"opaque\":{\"driver\":\""
        + WebhookBenchmark.DRIVER + "\",\"parameters\":" + parameters + "}}"
        + text.substring(end);
  }

  private static Process startChild(String what, List<String> flags, Path certificate,
      Path key) throws IOException {
    List<String> args = new ArrayList<>(List.of(what));
    if (certificate != null) {
      args.add(certificate.toString());
      args.add(key.toString());
    }
    return ChildServer.start(WebhookAttackBenchmark.class, flags, args);
  }

  private static long sockets(long pid) throws IOException {
    long count = 0;
    try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
            count++;
          }
        } catch (IOException e) {
          // closed while listed
        }
      }
    }
    return count;
  }

  private static void child(String[] args) throws Exception {
    if (args[1].equals("webhook")) {
      ConfigScheme<Object> scheme = ConfigScheme.builder()
          .register(API_VERSION, "SharingConfig", WebhookBenchmark.SharingConfig.class)
          .register(API_VERSION, "LimitConfig", LimitConfig.class).build();
      ChildServer.serveWebhook(scheme, Path.of(args[2]), Path.of(args[3]));
    } else {
      ChildServer.serveMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }
  }
}
