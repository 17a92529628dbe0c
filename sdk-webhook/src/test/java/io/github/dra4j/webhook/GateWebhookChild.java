package io.github.dra4j.webhook;

import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import io.github.dra4j.resourceclaim.config.DeviceConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A webhook process as a driver's {@code webhook} command runs one: every setting from the
 * environment ({@code TLS_CERT_FILE}, {@code TLS_PRIVATE_KEY_FILE}, {@code WEBHOOK_PORT}, {@code
 * METRICS_PORT}), the JVM's meters on, stopped by SIGTERM through the server's own shutdown hook.
 * Its scheme has {@link GateConfig}, whose check holds a review in flight until the test lets it
 * go. Prints {@code PORT <port> METRICS <port>} once it serves and {@code MAIN DONE} when {@code
 * awaitTermination} has returned.
 */
public final class GateWebhookChild {

  private GateWebhookChild() {}

  /**
   * A configuration whose check writes the file {@code started}, then waits (at most a minute)
   * until the file {@code release} exists.
   *
   * @param started written when the check begins
   * @param release awaited before the check ends
   */
  record GateConfig(String started, String release) implements DeviceConfig<GateConfig> {
    @Override
    public List<ConfigProblem> validate() {
      try {
        Files.writeString(Path.of(started), "started");
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!Files.exists(Path.of(release)) && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return List.of();
    }
  }

  /**
   * Runs the webhook.
   *
   * @param args the shutdown grace period in milliseconds
   * @throws Exception if it cannot start
   */
  public static void main(String[] args) throws Exception {
    ConfigScheme<Object> scheme = ConfigScheme.builder()
        .register(SharingConfig.API_VERSION, "GpuConfig", SharingConfig.class)
        .register(SharingConfig.API_VERSION, "GateConfig", GateConfig.class)
        .build();
    try (AdmissionWebhookServer server = AdmissionWebhookServer
        .builder(AdmissionReviewHandler.of(SharingConfig.DRIVER, scheme))
        .fromEnvironment()
        .bindAddress("127.0.0.1")
        .jvmMetrics(true)
        .shutdownGracePeriod(Duration.ofMillis(Long.parseLong(args[0])))
        .start()) {
      System.out.println("PORT " + server.port() + " METRICS "
          + server.metricsPort().orElseThrow());
      System.out.flush();
      server.awaitTermination();
    }
    System.out.println("MAIN DONE");
    System.out.flush();
  }
}
