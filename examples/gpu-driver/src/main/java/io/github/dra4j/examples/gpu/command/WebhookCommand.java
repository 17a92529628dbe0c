package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.option.SettingsCheck;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.config.GpuConfigs;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServer;
import io.github.dra4j.webhook.WebhookStartException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code gpu-driver webhook}: the admission webhook that refuses invalid GPU configurations in
 * ResourceClaims and ResourceClaimTemplates at {@code kubectl apply}, with the same
 * configuration scheme the kubelet plugin decodes them with. HTTPS on {@code WEBHOOK_PORT}
 * (8443) with the probes {@code /livez} and {@code /readyz}, certificate files re-read when
 * cert-manager rotates them, its meters and the JVM's for Prometheus on {@code METRICS_PORT}
 * (off unless set); runs until SIGTERM, which stops it gracefully (not ready, no new connection,
 * the reviews in flight answered). Exit status 143 after SIGTERM (the JVM's, once the server has
 * closed), 2 for bad settings (a malformed variable, a TLS file that is missing or unusable, a
 * port taken), said in one line, 70 when the server fails fatally (an {@link Error} such as
 * running out of memory, or its listening socket closing), so that the container restarts
 * instead of living on without serving.
 */
@Command(name = "webhook", mixinStandardHelpOptions = true, description = "Runs the admission webhook for the driver's opaque configurations.")
public final class WebhookCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookCommand.class);

  @Option(names = "--driver-name", defaultValue = "${env:DRIVER_NAME}", paramLabel = "NAME", description = "The DRA driver name whose configurations are checked (env DRIVER_NAME).")
  String driverName;

  @Option(names = "--tls-cert-file", defaultValue = "${env:TLS_CERT_FILE}", required = true, paramLabel = "FILE", description = "The server certificate chain, PEM (env TLS_CERT_FILE).")
  String certificate;

  @Option(names = "--tls-private-key-file", defaultValue = "${env:TLS_PRIVATE_KEY_FILE}", required = true, paramLabel = "FILE", description = "The server's private key, PEM (env TLS_PRIVATE_KEY_FILE).")
  String key;

  @Option(names = "--webhook-port", defaultValue = "${env:WEBHOOK_PORT:-8443}", paramLabel = "PORT", description = "The HTTPS port (env WEBHOOK_PORT; default 8443).")
  String port;

  @Option(names = "--metrics-port", defaultValue = "${env:METRICS_PORT:--1}", paramLabel = "PORT", description = "The Prometheus metrics port, plain HTTP"
      + " (env METRICS_PORT; default -1, none).")
  String metricsPort;

  @Spec
  CommandSpec spec;

  /** Creates the command; picocli sets its options from the command line and the environment. */
  public WebhookCommand() {}

  @Override
  public Integer call() throws Exception {
    LOG.info("{} webhook starting", GpuDriverMain.buildInfo());
    SettingsCheck check = new SettingsCheck();
    String name = check.valid("DRIVER_NAME", driverName, NameRules::driverName)
        .orElse(GpuDriver.DEFAULT_NAME);
    if (!check.problems().isEmpty()) {
      return refuse(String.join("; ", check.problems()));
    }
    // The flags, each defaulting to its variable, as the SDK reads the Deployment's environment.
    Map<String, String> environment = new HashMap<>();
    environment.put("TLS_CERT_FILE", certificate);
    environment.put("TLS_PRIVATE_KEY_FILE", key);
    environment.put("WEBHOOK_PORT", port);
    environment.put("METRICS_PORT", metricsPort);
    environment.values().removeIf(Objects::isNull);
    AdmissionWebhookServer server;
    try {
      server = AdmissionWebhookServer.builder(AdmissionReviewHandler.of(name, GpuConfigs.SCHEME))
          .fromEnvironment(environment)
          .jvmMetrics(true)
          .start();
    } catch (WebhookStartException e) {
      return refuse(e.getMessage());
    }
    try (server) {
      LOG.info("Admission webhook for {} listening on port {}", name, server.port());
      server.awaitTermination(); // until SIGTERM closes the server
    }
    return 0;
  }

  /** Bad settings: one line on standard error, status 2. */
  private int refuse(String problems) {
    spec.commandLine().getErr().println("gpu-driver webhook: " + problems);
    return 2;
  }
}
