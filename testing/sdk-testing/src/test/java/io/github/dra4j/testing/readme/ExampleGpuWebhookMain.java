package io.github.dra4j.testing.readme;

import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServer;

/** The README's admission webhook {@code main}. */
// README:begin webhook
public final class ExampleGpuWebhookMain {
  public static void main(String[] args) throws Exception {
    try (AdmissionWebhookServer webhook = AdmissionWebhookServer
        .builder(AdmissionReviewHandler.of(ExampleGpuDriver.NAME, GpuConfig.SCHEME))
        .fromEnvironment() // TLS_CERT_FILE, TLS_PRIVATE_KEY_FILE, WEBHOOK_PORT, METRICS_PORT
        .jvmMetrics(true) // beside the reviews' meters, on METRICS_PORT
        .start()) { // WebhookStartException: one line naming the setting and path
      webhook.awaitTermination(); // SIGTERM: not ready, no new connection, reviews finish
    }
  }
}
// README:end
