package io.github.dra4j.webhook;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link WebhookChild} in a JVM of its own with the chart's webhook flags (values.yaml, {@code
 * webhook.jvmOptions}), its output in a file: for the tests where memory, stack depth or the
 * process's end matter.
 */
final class ChildWebhook implements AutoCloseable {

  /** The chart's {@code webhook.jvmOptions}. */
  static final List<String> CHART_FLAGS = List.of("-XX:+UseSerialGC",
      "-XX:TieredStopAtLevel=1", "-Xss256k", "-Xms16m", "-Xmx64m");

  final Process process;
  final Path output;
  final int port;

  private ChildWebhook(Process process, Path output, int port) {
    this.process = process;
    this.output = output;
    this.port = port;
  }

  static ChildWebhook start(WebhookFixture fixture, Path directory) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(CHART_FLAGS);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(WebhookChild.class.getName());
    command.add(fixture.certificateFile.toString());
    command.add(fixture.keyFile.toString());
    Path output = directory.resolve("webhook-" + System.nanoTime() + ".out");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(output.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline && process.isAlive()) {
      for (String line : Files.readAllLines(output, StandardCharsets.ISO_8859_1)) {
        if (line.startsWith("PORT ")) {
          return new ChildWebhook(process, output, Integer.parseInt(line.substring(5).trim()));
        }
      }
      Thread.sleep(50);
    }
    process.destroyForcibly();
    throw new IllegalStateException("the webhook did not start:\n"
        + Files.readString(output, StandardCharsets.ISO_8859_1));
  }

  /** The process's output so far. */
  String output() throws IOException {
    return Files.readString(output, StandardCharsets.ISO_8859_1);
  }

  /** VmRSS in KiB. */
  long rssKib() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()),
        "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  /** How many sockets the process holds open (its listening socket among them). */
  long sockets() throws IOException {
    long count = 0;
    try (var fds = Files.list(Path.of("/proc", Long.toString(process.pid()), "fd"))) {
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

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
  }
}
