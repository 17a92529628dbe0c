package io.github.dra4j.webhook;

import java.nio.file.Path;

/**
 * A webhook process for the tests that need one of its own: started by {@link ChildWebhook} in
 * a JVM with the chart's flags, it serves {@link SharingConfig#attackScheme()} on 127.0.0.1
 * with the
 * builder's defaults, prints {@code PORT <port>} and runs until killed.
 */
public final class WebhookChild {

  private WebhookChild() {}

  /**
   * Starts the webhook.
   *
   * @param args the certificate and key files
   * @throws Exception if it cannot start
   */
  public static void main(String[] args) throws Exception {
    AdmissionWebhookServer server = AdmissionWebhookServer.builder(
        AdmissionReviewHandler.of(SharingConfig.DRIVER, SharingConfig.attackScheme()))
        .tls(Path.of(args[0]), Path.of(args[1]))
        .bindAddress("127.0.0.1").port(0).start();
    System.out.println("PORT " + server.port());
    System.out.flush();
    server.awaitTermination();
  }
}
