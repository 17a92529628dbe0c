package io.github.dra4j.benchmarks.webhook;

import io.github.dra4j.benchmarks.floor.ServerProcess;
import io.github.dra4j.metrics.PrometheusEndpoint;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A server run in a JVM of its own, so that its start-up and memory are its own: the benchmark's
 * class path and main class with {@code child} and arguments, which starts the server and prints
 * {@code PORT <n>} as its first line. Its standard error is discarded.
 */
final class ChildServer {

  private ChildServer() {}

  /**
   * Starts the child JVM.
   *
   * @param main the benchmark whose {@code main} serves as the child
   * @param flags the JVM's options
   * @param args what follows {@code child}
   * @return the process; its owner ends it
   * @throws IOException if it cannot be started
   */
  static Process start(Class<?> main, List<String> flags, List<String> args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(flags);
    command.add("-cp");
    command.add(ServerProcess.JvmLaunch.currentClassPath()); // right under exec:java too
    command.add(main.getName());
    command.add("child");
    command.addAll(args);
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  /**
   * In the child: serves reviews over TLS on a free port of 127.0.0.1, prints the port, and runs
   * until killed.
   *
   * @param scheme the configurations the webhook checks
   * @param certificate the server's certificate file
   * @param key its private key file
   * @throws Exception if the server cannot start
   */
  static void serveWebhook(ConfigScheme<?> scheme, Path certificate, Path key) throws Exception {
    AdmissionWebhookServer server = AdmissionWebhookServer
        .builder(AdmissionReviewHandler.of(WebhookBenchmark.DRIVER, scheme))
        .tls(certificate, key).bindAddress("127.0.0.1").port(0).start();
    printPort(server.port());
    server.awaitTermination();
  }

  /**
   * In the child: serves a registry's metrics on a free port of 127.0.0.1, prints the port, and
   * runs until killed.
   *
   * @param registry the meters served
   * @throws Exception if the endpoint cannot start
   */
  static void serveMetrics(PrometheusMeterRegistry registry) throws Exception {
    PrometheusEndpoint endpoint = PrometheusEndpoint.builder(registry)
        .address(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).start();
    printPort(endpoint.port());
    Thread.sleep(Long.MAX_VALUE);
  }

  private static void printPort(int port) {
    System.out.println("PORT " + port);
    System.out.flush();
  }

  /**
   * Waits for the child's first line and reads the port from it.
   *
   * @param process the child
   * @return the port its server listens on
   * @throws IOException if its output cannot be read
   * @throws IllegalStateException if the first line is not {@code PORT <n>}
   */
  static int port(Process process) throws IOException {
    String line = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8)).readLine();
    if (line == null || !line.startsWith("PORT ")) {
      throw new IllegalStateException("the server did not start: " + line);
    }
    return Integer.parseInt(line.substring(5).trim());
  }
}
