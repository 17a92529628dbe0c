package io.github.dra4j.testing.readme;

import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServer;
import java.nio.file.Path;

/** The README's admission webhook {@code main}. */
// README:begin webhook
public final class ExampleGpuWebhookMain {
  public static void main(String[] args) throws Exception {
    try (AdmissionWebhookServer webhook = AdmissionWebhookServer
        .builder(AdmissionReviewHandler.of(ExampleGpuDriver.NAME, GpuConfig.SCHEME))
        .tls(Path.of("/tls/tls.crt"), Path.of("/tls/tls.key"))   // reloaded when they change
        .port(8443)                                              // reviews, /readyz
        .start()) {
      Runtime.getRuntime().addShutdownHook(new Thread(webhook::close));  // SIGTERM: drain, stop
      webhook.awaitTermination();
    }
  }
}
// README:end
