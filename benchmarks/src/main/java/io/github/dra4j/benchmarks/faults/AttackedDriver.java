package io.github.dra4j.benchmarks.faults;

import io.github.dra4j.benchmarks.kubeletplugin.ApiServerAccess;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of the GPU driver's jar as its DaemonSet runs it (8 simulated GPUs, the health port on
 * 127.0.0.1 as on the pod's IP, metrics on, a health file the benchmark writes), and what can be
 * seen of it from outside: its sockets and ports, resident memory, log and meters. Closing kills
 * it.
 */
final class AttackedDriver implements AutoCloseable {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final Path log;
  private final Path healthFile;
  final Path registrationSocket;
  final Path draSocket;
  final int livenessPort;
  final int metricsPort;

  private AttackedDriver(Process process, Path log, Path healthFile, Path registrationSocket,
      Path draSocket, int livenessPort, int metricsPort) {
    this.process = process;
    this.log = log;
    this.healthFile = healthFile;
    this.registrationSocket = registrationSocket;
    this.draSocket = draSocket;
    this.livenessPort = livenessPort;
    this.metricsPort = metricsPort;
  }

  /**
   * Starts the driver and waits until it is registered and its devices' first health is written.
   *
   * @param java the java executable
   * @param options the JVM options (the chart's)
   * @param jar the driver's executable jar
   * @param access how it reaches the API server
   * @param dir a fresh directory of its own (short: socket paths have a length limit)
   * @return the running driver
   * @throws Exception if it does not start
   */
  static AttackedDriver start(String java, List<String> options, Path jar, ApiServerAccess access,
      Path dir) throws Exception {
    Path registry = Files.createDirectories(dir.resolve("reg"));
    Path plugins = Files.createDirectories(dir.resolve("plg"));
    Path health = dir.resolve("health.json");
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(options);
    command.addAll(List.of("-jar", jar.toString(), "kubelet-plugin"));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(access.environment());
    builder.environment().put("NODE_NAME", "node");
    builder.environment().put("KUBELET_REGISTRAR_DIRECTORY_PATH", registry.toString());
    builder.environment().put("KUBELET_PLUGINS_DIRECTORY_PATH", plugins.toString());
    builder.environment().put("CDI_ROOT", Files.createDirectories(dir.resolve("cdi")).toString());
    builder.environment().put("NUM_DEVICES", "8");
    builder.environment().put("HEALTHCHECK_PORT", "0");
    builder.environment().put("HEALTHCHECK_ADDRESS", "127.0.0.1"); // the pod's IP in a pod
    builder.environment().put("METRICS_PORT", "0");
    builder.environment().put("GPU_HEALTH_FILE", health.toString());
    builder.environment().put("MALLOC_ARENA_MAX", "2"); // as the chart sets it
    Path log = dir.resolve("driver.log");
    Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + WAIT.toNanos();
    Pattern ports = Pattern.compile("liveness probe on port (\\d+); metrics on port (\\d+)");
    while (true) {
      Matcher matcher = ports.matcher(Files.readString(log));
      if (matcher.find() && !KubeletClient.registrationSockets(registry).isEmpty()) {
        Path registration = KubeletClient.registrationSockets(registry).get(0);
        // The kubelet's 1 s deadline can pass while the JVM warms up; it asks again, so do we.
        try (KubeletClient registrar = KubeletClient.create()) {
          Path dra = Path.of(registrar.getInfo(registration).getEndpoint());
          return new AttackedDriver(process, log, health, registration, dra,
              Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)));
        } catch (RuntimeException notYet) {
          // again below
        }
      }
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException("the driver did not start; see " + log);
      }
      Thread.sleep(20);
    }
  }

  boolean alive() {
    return process.isAlive();
  }

  /** Resident memory in KiB, 0 once the process has ended. */
  long rssKib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()),
          "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D", ""));
        }
      }
    } catch (IOException gone) {
      // ended
    }
    return 0;
  }

  /** The log's lines about running out of memory (heap, or Netty's direct memory). */
  List<String> outOfMemory() throws IOException {
    return Files.readString(log).lines()
        .filter(line -> !line.startsWith("Picked up JAVA_TOOL_OPTIONS"))
        .filter(line -> line.contains("OutOfMemoryError") || line.contains("OutOfDirectMemory"))
        .toList();
  }

  /** The gRPC liveness probe as the kubelet makes it: a fresh connection, one call. */
  String probe() {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", livenessPort)
        .usePlaintext().build();
    try {
      return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .check(HealthCheckRequest.newBuilder().setService("liveness").build()).getStatus()
          .name();
    } catch (RuntimeException e) {
      return e.getMessage();
    } finally {
      channel.shutdownNow();
    }
  }

  /**
   * The plugin's own count of what its servers refused and held, from its metrics endpoint.
   *
   * @return series to values, e.g. {@code refusals{server="dra",reason="connections"}}, or the
   *     error when the endpoint did not answer
   */
  Map<String, String> meters() {
    Map<String, String> meters = new TreeMap<>();
    try {
      String page = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort
          + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      Pattern series = Pattern.compile("(?m)^dra4j_plugin_(refusals_total|connections)\\{"
          + "(?:driver_name=\"[^\"]*\",)?(.*?)} ([0-9.E]+)$");
      Matcher matcher = series.matcher(page);
      while (matcher.find()) {
        meters.put(matcher.group(1).replace("_total", "") + "{" + matcher.group(2)
            .replaceAll(",?driver_name=\"[^\"]*\"", "") + "}", matcher.group(3).replace(".0", ""));
      }
    } catch (IOException | RuntimeException e) {
      meters.put("error", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return meters;
  }

  /** Marks every GPU unhealthy with a message of about 1,000 characters naming the change. */
  void writeHealth(int change) throws IOException {
    StringBuilder json = new StringBuilder("{");
    for (int gpu = 0; gpu < 8; gpu++) {
      json.append(gpu == 0 ? "" : ",").append("\"gpu-").append(gpu)
          .append("\": {\"key\": \"xid\", \"value\": \"79\", \"message\": \"change ")
          .append(change).append(' ').append("x".repeat(1000)).append("\"}");
    }
    Path next = healthFile.resolveSibling("health.json.tmp");
    Files.writeString(next, json.append('}'));
    Files.move(next, healthFile, StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
