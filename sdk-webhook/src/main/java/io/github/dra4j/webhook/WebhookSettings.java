package io.github.dra4j.webhook;

import io.github.dra4j.webhook.AdmissionWebhookServerBuilder.Explicit;
import io.github.dra4j.webhook.internal.env.WebhookEnvironment;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * What a webhook starts with: the builder's options with the environment applied, and how each
 * setting is named in messages ({@code TLS_CERT_FILE="/tls/tls.crt"} when the environment gave
 * it, {@code certificateFile="..."} when a builder call did). Immutable.
 *
 * @param handler answers the reviews
 * @param certificateFile the PEM certificate chain
 * @param keyFile the PEM private key
 * @param certificateName the certificate file's setting and value, for messages
 * @param keyName the key file's setting and value, for messages
 * @param bindAddress the address to listen on
 * @param port the HTTPS port
 * @param portName the port's setting and value, for messages
 * @param path the reviews' path
 * @param maxRequestBytes the largest body
 * @param requestTimeout one request's deadline
 * @param certificateCheckInterval how often the TLS files are looked at
 * @param shutdownGracePeriod how long reviews in flight get when stopping
 * @param threads the review threads
 * @param queuedReviews the reviews that may wait
 * @param maxConnections the connections open at once
 * @param backlog the connections waiting to be accepted
 * @param onFatalError the reaction to a fatal failure
 * @param meterRegistry the driver's registry, or null
 * @param metricsAddress the metrics endpoint's address, or null for none
 * @param metricsName the metrics endpoint's setting and value, for messages
 * @param metricsPath the metrics endpoint's path
 * @param jvmMetrics whether the JVM's meters are registered
 * @param closeOnShutdown whether a shutdown hook closes the server
 */
record WebhookSettings(AdmissionReviewHandler handler, Path certificateFile, Path keyFile,
    String certificateName, String keyName, String bindAddress, int port, String portName,
    String path, int maxRequestBytes, Duration requestTimeout, Duration certificateCheckInterval,
    Duration shutdownGracePeriod, int threads, int queuedReviews, int maxConnections,
    int backlog, BiConsumer<String, Throwable> onFatalError, MeterRegistry meterRegistry,
    InetSocketAddress metricsAddress, String metricsName, String metricsPath, boolean jvmMetrics,
    boolean closeOnShutdown) {

  /**
   * The builder's settings, with its environment (if it was given one) applied to the options no
   * call set.
   *
   * @throws WebhookStartException naming every malformed variable, or a missing TLS variable
   * @throws IllegalStateException if no TLS files were given and no environment either
   */
  static WebhookSettings of(AdmissionWebhookServerBuilder b) {
    Path certificateFile = b.certificateFile;
    Path keyFile = b.keyFile;
    String certificateSetting = "certificateFile";
    String keySetting = "keyFile";
    int port = b.port;
    String portSetting = "port";
    InetSocketAddress metricsAddress = b.metricsAddress;
    String metricsName = metricsAddress == null ? "" : named("metricsAddress", metricsAddress);
    if (b.environment != null) {
      WebhookEnvironment env;
      try {
        env = WebhookEnvironment.read(b.environment);
      } catch (IllegalArgumentException e) {
        throw new WebhookStartException(e.getMessage(), e);
      }
      if (!b.explicit.contains(Explicit.TLS)) {
        if (env.certificateFile().isPresent()) {
          certificateFile = env.certificateFile().get();
          certificateSetting = WebhookEnvironment.TLS_CERT_FILE;
        }
        if (env.keyFile().isPresent()) {
          keyFile = env.keyFile().get();
          keySetting = WebhookEnvironment.TLS_PRIVATE_KEY_FILE;
        }
      }
      if (!b.explicit.contains(Explicit.PORT) && env.port().isPresent()) {
        port = env.port().getAsInt();
        portSetting = WebhookEnvironment.WEBHOOK_PORT;
      }
      if (!b.explicit.contains(Explicit.METRICS) && env.metricsPort().isPresent()) {
        int metrics = env.metricsPort().getAsInt();
        metricsAddress = metrics < 0 ? null : new InetSocketAddress(metrics);
        metricsName = named(WebhookEnvironment.METRICS_PORT, metrics);
      }
    }
    requireTls(b, certificateFile, keyFile);
    return new WebhookSettings(b.handler, certificateFile, keyFile,
        named(certificateSetting, certificateFile), named(keySetting, keyFile), b.bindAddress,
        port, named(portSetting, port), b.path, b.maxRequestBytes, b.requestTimeout,
        b.certificateCheckInterval, b.shutdownGracePeriod, b.threads, b.queuedReviews,
        b.maxConnections, b.backlog, b.onFatalError, b.meterRegistry, metricsAddress,
        metricsName, b.metricsPath, b.jvmMetrics, b.closeOnShutdown);
  }

  private static void requireTls(AdmissionWebhookServerBuilder b, Path certificateFile,
      Path keyFile) {
    if (certificateFile != null && keyFile != null) {
      return;
    }
    if (b.environment == null) {
      throw new IllegalStateException("tls(certificateFile, keyFile) is required");
    }
    List<String> missing = new ArrayList<>();
    if (certificateFile == null) {
      missing.add(WebhookEnvironment.TLS_CERT_FILE
          + " is required: the server's certificate chain, a PEM file");
    }
    if (keyFile == null) {
      missing.add(WebhookEnvironment.TLS_PRIVATE_KEY_FILE
          + " is required: the server's private key, a PEM file");
    }
    throw new WebhookStartException(String.join("; ", missing), null);
  }

  /** A setting and its value as messages name them, such as {@code WEBHOOK_PORT="8443"}. */
  static String named(String setting, Object value) {
    return setting + "=\"" + value + "\"";
  }
}
