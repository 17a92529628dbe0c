package io.github.dra4j.benchmarks.webhook;

import io.github.dra4j.benchmarks.webhook.WebhookBenchmark.SharingConfig;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.testing.tls.KeyEncoding;
import io.github.dra4j.testing.tls.TestCertificateAuthority;
import io.github.dra4j.webhook.AdmissionWebhookServerBuilder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
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
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * Start-up time and resident memory of the two small servers, each alone in a JVM started with
 * the chart's flags: the admission webhook (the webhook Deployment's {@code -XX:+UseSerialGC
 * -XX:TieredStopAtLevel=1 -Xss256k -Xms16m -Xmx64m}) and the metrics endpoint (the kubelet
 * plugin's flags, less the three that only JDK 25 takes). Printed per server, as the median of
 * several starts: milliseconds from starting the process to the first answer ({@code /readyz} or
 * a scrape), then the resident set (VmRSS) and its peak (VmHWM) after 500 reviews or 200 scrapes
 * over one keep-alive connection. The figures include the JVM's own start-up and footprint, so
 * compare them between builds, not with a figure taken elsewhere.
 *
 * <p>Run: {@code ./mvnw -B -q -Pbenchmarks -pl benchmarks exec:java
 * -Dexec.mainClass=io.github.dra4j.benchmarks.webhook.ServerFootprint} (optional argument: the
 * number of starts per server, default 5). Linux only (it reads {@code /proc}).
 */
public final class ServerFootprint {

  /** The webhook Deployment's JVM flags (values.yaml, {@code webhook.jvmOptions}). */
  public static final List<String> WEBHOOK_FLAGS = List.of("-XX:+UseSerialGC",
      "-XX:TieredStopAtLevel=1", "-Xss256k", "-Xms16m", "-Xmx64m");

  /**
   * The kubelet plugin DaemonSet's JVM flags ({@code kubeletPlugin.jvmOptions}) that a JDK 17
   * takes: the chart's image runs JDK 25, which also gets compact object headers, a native heap
   * trim and a code cache sweeper threshold.
   */
  public static final List<String> PLUGIN_FLAGS = List.of("-XX:+UseSerialGC",
      "-XX:TieredStopAtLevel=1", "-Xss256k", "-Xms8m", "-Xmx32m", "-Xmn4m",
      "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20", "-XX:ReservedCodeCacheSize=12m",
      "-Dio.netty.jfr.enabled=false");

  private ServerFootprint() {}

  /**
   * Measures both servers, or, with {@code child webhook|metrics ...}, is one of the servers
   * measured.
   *
   * @param args optional: the number of starts per server
   * @throws Exception if a server does not start or answer
   */
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(args);
      return;
    }
    int starts = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    Path directory = Files.createTempDirectory("dra4j-footprint");
    TestCertificateAuthority ca = TestCertificateAuthority.create();
    Path certificate = directory.resolve("tls.crt");
    Path key = directory.resolve("tls.key");
    ca.issue("localhost").writeTo(certificate, key, KeyEncoding.PKCS8);
    System.out.printf(Locale.ROOT, "server footprint: %d cores, Java %s, median of %d starts%n",
        Runtime.getRuntime().availableProcessors(), Runtime.version(), starts);
    System.out.println(measure("webhook", WEBHOOK_FLAGS, starts, ca.clientContext(),
        List.of(certificate.toString(), key.toString())));
    System.out.println(measure("metrics", PLUGIN_FLAGS, starts, null, List.of()));
    Files.delete(certificate);
    Files.delete(key);
    Files.delete(directory);
  }

  private static String measure(String server, List<String> flags, int starts,
      SSLContext context, List<String> extra) throws Exception {
    long[] startMillis = new long[starts];
    long[] rssKib = new long[starts];
    long[] peakKib = new long[starts];
    for (int i = 0; i < starts; i++) {
      long[] figures = once(server, flags, context, extra);
      startMillis[i] = figures[0];
      rssKib[i] = figures[1];
      peakKib[i] = figures[2];
    }
    return String.format(Locale.ROOT, "%-8s start to first answer %5d ms; after %s: "
        + "RSS %6.1f MiB, peak %6.1f MiB", server, median(startMillis),
        server.equals("webhook") ? "500 reviews" : "200 scrapes", median(rssKib) / 1024.0,
        median(peakKib) / 1024.0);
  }

  private static long[] once(String server, List<String> flags, SSLContext context,
      List<String> extra) throws Exception {
    List<String> args = new ArrayList<>(List.of(server));
    args.addAll(extra);
    long begin = System.nanoTime();
    Process process = ChildServer.start(ServerFootprint.class, flags, args);
    try {
      int port = ChildServer.port(process);
      HttpClient.Builder builder = HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10));
      if (context != null) {
        builder.sslContext(context);
      }
      HttpClient client = builder.build();
      boolean webhook = server.equals("webhook");
      HttpRequest first = webhook
          ? HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/readyz")).build()
          : HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build();
      HttpResponse<String> answer = client.send(first, HttpResponse.BodyHandlers.ofString());
      long startMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
      if (answer.statusCode() != 200) {
        throw new IllegalStateException(server + " answered " + answer.statusCode());
      }
      HttpRequest work = webhook ? review(port) : first;
      for (int i = 0; i < (webhook ? 500 : 200); i++) {
        HttpResponse<String> reply = client.send(work, HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() != 200) {
          throw new IllegalStateException(server + " answered " + reply.statusCode());
        }
      }
      long[] memory = memoryKib(process.pid());
      return new long[] {startMillis, memory[0], memory[1]};
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static HttpRequest review(int port) {
    byte[] raw = WebhookBenchmark.request(port);
    String text = new String(raw, StandardCharsets.UTF_8);
    String body = text.substring(text.indexOf("\r\n\r\n") + 4);
    return HttpRequest.newBuilder(URI.create("https://localhost:" + port
        + AdmissionWebhookServerBuilder.DEFAULT_PATH))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }

  /** VmRSS and VmHWM of a process, in KiB. */
  static long[] memoryKib(long pid) throws IOException {
    long rss = 0;
    long peak = 0;
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = kib(line);
      } else if (line.startsWith("VmHWM:")) {
        peak = kib(line);
      }
    }
    return new long[] {rss, peak};
  }

  private static long kib(String line) {
    return Long.parseLong(line.replaceAll("[^0-9]", ""));
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** The measured process: starts one server, prints its port, runs until killed. */
  private static void child(String[] args) throws Exception {
    if (args[1].equals("webhook")) {
      ConfigScheme<Object> scheme = ConfigScheme.builder().register("gpu.example.com/v1alpha1",
          "SharingConfig", SharingConfig.class).build();
      ChildServer.serveWebhook(scheme, Path.of(args[2]), Path.of(args[3]));
    } else {
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      for (int i = 0; i < 40; i++) {
        Counter.builder("dra4j_footprint_calls").tag("n", Integer.toString(i))
            .register(registry).increment(i);
      }
      ChildServer.serveMetrics(registry);
    }
  }
}
