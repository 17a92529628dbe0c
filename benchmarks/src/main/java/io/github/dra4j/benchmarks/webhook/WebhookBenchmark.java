package io.github.dra4j.benchmarks.webhook;

import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import io.github.dra4j.testing.tls.KeyEncoding;
import io.github.dra4j.testing.tls.TestCertificateAuthority;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServer;
import io.github.dra4j.webhook.AdmissionWebhookServerBuilder;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * AdmissionReviews per second and their latency through the webhook over HTTPS with keep-alive:
 * the {@link AdmissionWebhookServer} with its defaults (TLS 1.3, an EC P-256 certificate) and, in
 * the same JVM, client threads that each hold one TLS connection and post one review after
 * another, as the API server's connection pool does. Each review is a CREATE of a {@code
 * resource.k8s.io/v1} ResourceClaim with four opaque configurations of the driver (a sharing
 * strategy with its settings, strictly decoded, normalized and validated each time); every answer
 * is read and checked to be an allowed review.
 *
 * <p>Printed per number of connections: reviews per second, and p50, p99, p99.9 and max latency
 * in ms from the first byte written to the last byte of the answer read. Client and server share
 * the machine's cores, so the figures are a floor of what a webhook pod gets. The target is
 * printed beside them: at least 5,000 reviews/s with p99 under 5 ms.
 *
 * <p>Run: {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.webhook.WebhookBenchmark}. System properties:
 * {@code connections} (default {@code 1,4,8}), {@code warmup.seconds} (default 5), {@code
 * seconds} (measured, default 10).
 */
public final class WebhookBenchmark {

  static final String DRIVER = "gpu.example.com";
  private static final String API_VERSION = "gpu.example.com/v1alpha1";

  private WebhookBenchmark() {}

  /**
   * The benchmark's configuration type: a sharing strategy and that strategy's settings.
   *
   * @param strategy {@code TimeSlicing} (the default) or {@code SpacePartitioning}
   * @param interval the time slice of {@code TimeSlicing}, 0 to 3 (0 when not given)
   * @param partitions the number of partitions of {@code SpacePartitioning}, at least 1
   */
  public record SharingConfig(String strategy, Integer interval, Integer partitions)
      implements
        DeviceConfig<SharingConfig> {
    @Override
    public SharingConfig normalized() {
      String s = strategy == null ? "TimeSlicing" : strategy;
      return new SharingConfig(s, interval == null && s.equals("TimeSlicing") ? Integer.valueOf(0)
          : interval,
          partitions == null && s.equals("SpacePartitioning") ? Integer.valueOf(1)
              : partitions);
    }

    @Override
    public List<ConfigProblem> validate() {
      List<ConfigProblem> problems = new ArrayList<>();
      if (!strategy.equals("TimeSlicing") && !strategy.equals("SpacePartitioning")) {
        problems.add(ConfigProblem.of("strategy", "unknown strategy " + strategy));
      }
      if (interval != null && (interval < 0 || interval > 3)) {
        problems.add(ConfigProblem.of("interval", "must be 0 to 3, got " + interval));
      }
      if (partitions != null && partitions < 1) {
        problems.add(ConfigProblem.of("partitions", "must be at least 1, got " + partitions));
      }
      return problems;
    }
  }

  /** Figures of one run. */
  @SuppressWarnings("ArrayRecordComponent") // samples for statistics, never compared
  record Result(int connections, long reviews, double seconds, double[] latenciesMs) {

    double perSecond() {
      return reviews / seconds;
    }

    double percentile(double p) {
      if (latenciesMs.length == 0) {
        return 0;
      }
      int index = (int) Math.ceil(p / 100.0 * latenciesMs.length) - 1;
      return latenciesMs[Math.max(0, Math.min(latenciesMs.length - 1, index))];
    }
  }

  /**
   * Runs the benchmark and prints its figures.
   *
   * @param args not used; see the system properties above
   * @throws Exception if the webhook or a client fails
   */
  public static void main(String[] args) throws Exception {
    int warmup = Integer.getInteger("warmup.seconds", 5);
    int seconds = Integer.getInteger("seconds", 10);
    String[] connections = System.getProperty("connections", "1,4,8").split(",", -1);
    Path directory = Files.createTempDirectory("dra4j-webhook-bench");
    System.out.printf(Locale.ROOT, "webhook benchmark: %d cores, Java %s, %d s per run after %d s"
        + " warm-up; a claim with 4 configs per review%n",
        Runtime.getRuntime().availableProcessors(), Runtime.version(), seconds, warmup);
    try {
      for (String count : connections) {
        Result result = run(directory, Integer.parseInt(count.trim()), Duration.ofSeconds(warmup),
            Duration.ofSeconds(seconds));
        System.out.println(format(result));
      }
    } finally {
      try (var files = Files.list(directory)) {
        for (Path file : files.toList()) {
          Files.delete(file);
        }
      }
      Files.delete(directory);
    }
  }

  static String format(Result result) {
    return String.format(Locale.ROOT, "%d connection(s): %,.0f reviews/s (%,d in %.1f s); "
        + "latency ms p50 %.3f, p99 %.3f, p99.9 %.3f, max %.3f  [target: >= 5,000/s, "
        + "p99 < 5 ms]", result.connections(), result.perSecond(), result.reviews(),
        result.seconds(), result.percentile(50), result.percentile(99), result.percentile(99.9),
        result.percentile(100));
  }

  /** Starts a webhook, warms it up, then measures with the given number of connections. */
  static Result run(Path directory, int connections, Duration warmup, Duration measure)
      throws Exception {
    // cert-manager's ECDSA key in PKCS #8, as the webhook's Secret holds it
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    Path certificateFile = directory.resolve("tls.crt");
    Path keyFile = directory.resolve("tls.key");
    ca.issue("localhost").writeTo(certificateFile, keyFile, KeyEncoding.PKCS8);
    ConfigScheme<Object> scheme = ConfigScheme.builder()
        .register(API_VERSION, "SharingConfig", SharingConfig.class).build();
    try (AdmissionWebhookServer server = AdmissionWebhookServer
        .builder(AdmissionReviewHandler.of(DRIVER, scheme))
        .tls(certificateFile, keyFile)
        .bindAddress("127.0.0.1").port(0).start()) {
      byte[] request = request(server.port());
      if (!warmup.isZero()) {
        drive(ca.clientContext(), server.port(), request, connections, warmup);
      }
      return drive(ca.clientContext(), server.port(), request, connections, measure);
    }
  }

  private static Result drive(SSLContext context, int port, byte[] request, int connections,
      Duration duration) throws Exception {
    ExecutorService clients = Executors.newFixedThreadPool(connections);
    try {
      long start = System.nanoTime();
      long end = start + duration.toNanos();
      List<Future<long[]>> results = new ArrayList<>();
      for (int i = 0; i < connections; i++) {
        results.add(clients.submit(() -> client(context, port, request, end)));
      }
      List<long[]> all = new ArrayList<>();
      long reviews = 0;
      for (Future<long[]> result : results) {
        long[] nanos = result.get();
        all.add(nanos);
        reviews += nanos.length;
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double[] millis = new double[(int) reviews];
      int index = 0;
      for (long[] nanos : all) {
        for (long n : nanos) {
          millis[index++] = n / 1e6;
        }
      }
      Arrays.sort(millis);
      return new Result(connections, reviews, seconds, millis);
    } finally {
      clients.shutdownNow();
    }
  }

  /** One keep-alive connection posting reviews until {@code end}; returns each latency. */
  private static long[] client(SSLContext context, int port, byte[] request, long end)
      throws IOException {
    long[] latencies = new long[1 << 16];
    int count = 0;
    try (SSLSocket socket = (SSLSocket) context.getSocketFactory()
        .createSocket("localhost", port)) {
      socket.setTcpNoDelay(true);
      socket.startHandshake();
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
      while (System.nanoTime() < end) {
        long begin = System.nanoTime();
        out.write(request);
        out.flush();
        String answer = readResponse(in);
        long took = System.nanoTime() - begin;
        if (!answer.contains("\"allowed\":true")) {
          throw new IllegalStateException("unexpected answer: " + answer);
        }
        if (count == latencies.length) {
          latencies = Arrays.copyOf(latencies, count * 2);
        }
        latencies[count++] = took;
      }
    }
    return Arrays.copyOf(latencies, count);
  }

  /** Reads one HTTP/1.1 response with a Content-Length; returns its body. */
  private static String readResponse(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    int contentLength = -1;
    String status = null;
    while (true) {
      String line = readLine(in);
      if (line.isEmpty()) {
        break;
      }
      if (status == null) {
        status = line;
      } else if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
        contentLength = Integer.parseInt(line.substring(15).trim());
      }
      head.append(line).append('\n');
    }
    if (status == null || !status.startsWith("HTTP/1.1 200") || contentLength < 0) {
      throw new IllegalStateException("unexpected response: " + head);
    }
    return new String(in.readNBytes(contentLength), StandardCharsets.UTF_8);
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c; (c = in.read()) != '\n';) {
      if (c < 0) {
        throw new IOException("connection closed");
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  /** The HTTP request: a CREATE review of a v1 claim with four configurations. */
  static byte[] request(int port) {
    String configs = String.join(", ",
        config("", "{\"strategy\": \"TimeSlicing\", \"interval\": 2}"),
        config("\"gpu\"", "{\"strategy\": \"SpacePartitioning\", \"partitions\": 4}"),
        config("\"gpu/large\"", "{\"strategy\": \"TimeSlicing\"}"),
        config("\"gpu\", \"nic\"", "{}"));
    String body = "{\"kind\":\"AdmissionReview\",\"apiVersion\":\"admission.k8s.io/v1\","
        + "\"request\":{\"uid\":\"0b9f3c5e-2f0e-4a51-9a5e-5b1f7d2a6c11\","
        + "\"kind\":{\"group\":\"resource.k8s.io\",\"version\":\"v1\",\"kind\":\"ResourceClaim\"},"
        + "\"resource\":{\"group\":\"resource.k8s.io\",\"version\":\"v1\","
        + "\"resource\":\"resourceclaims\"},\"name\":\"bench\",\"namespace\":\"default\","
        + "\"operation\":\"CREATE\",\"userInfo\":{\"username\":\"system:admin\"},"
        + "\"object\":{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
        + "\"metadata\":{\"name\":\"bench\",\"namespace\":\"default\"},"
        + "\"spec\":{\"devices\":{\"requests\":["
        + "{\"name\":\"gpu\",\"firstAvailable\":[{\"name\":\"large\","
        + "\"deviceClassName\":\"gpu.example.com\"}]},"
        + "{\"name\":\"nic\",\"exactly\":{\"deviceClassName\":\"nic.example.com\"}}],"
        + "\"config\":[" + configs + "]}},\"status\":{}},\"oldObject\":null,\"dryRun\":false}}";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head = "POST " + AdmissionWebhookServerBuilder.DEFAULT_PATH + "?timeout=10s HTTP/1.1\r\n"
        + "Host: localhost:" + port + "\r\nContent-Type: application/json\r\n"
        + "Accept: application/json, */*\r\nContent-Length: " + bytes.length + "\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
    byte[] all = Arrays.copyOf(headBytes, headBytes.length + bytes.length);
    System.arraycopy(bytes, 0, all, headBytes.length, bytes.length);
    return all;
  }

  private static String config(String requests, String fields) {
    String inner = fields.equals("{}") ? "" : ", " + fields.substring(1, fields.length() - 1);
    return "{\"requests\":[" + requests + "],\"opaque\":{\"driver\":\"" + DRIVER
        + "\",\"parameters\":{\"apiVersion\":\"" + API_VERSION
        + "\",\"kind\":\"SharingConfig\"" + inner + "}}}";
  }
}
