package ${package}.command;

import ${package}.DeviceDriver;
import ${package}.config.DriverConfigs;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.option.SettingsCheck;
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
 * {@code webhook}: the admission webhook that refuses ResourceClaims and ResourceClaimTemplates
 * whose configuration of this driver is invalid, at {@code kubectl apply}, with the same
 * configuration scheme the kubelet plugin decodes them with. HTTPS on {@code WEBHOOK_PORT}
 * (8443) with the probes {@code /livez} and {@code /readyz}, the certificate files re-read when
 * cert-manager rotates them, its meters and the JVM's on {@code METRICS_PORT} (off unless set);
 * runs until SIGTERM, which stops it gracefully: not ready, no new connection, the reviews in
 * flight answered. A setting it cannot use (a malformed variable, a missing or unusable TLS file,
 * a port taken) ends it with status 2 and one line naming the setting.
 */
@Command(name = "webhook", mixinStandardHelpOptions = true,
    versionProvider = DriverMain.Version.class,
    defaultValueProvider = EnvironmentDefaults.class,
    description = "Runs the admission webhook for the driver's configurations.")
public final class WebhookCommand implements Callable<Integer> {

  /** The HTTPS port unless {@code WEBHOOK_PORT} says otherwise. */
  public static final int DEFAULT_PORT = 8443;

  private static final Logger LOG = LoggerFactory.getLogger(WebhookCommand.class);

  @Option(names = "--driver-name", paramLabel = "NAME",
      description = "The DRA driver name whose configurations are checked (env DRIVER_NAME;"
          + " default " + DeviceDriver.DEFAULT_NAME + ").")
  String driverName;

  @Option(names = "--tls-cert-file", paramLabel = "FILE",
      description = "The server's certificate chain, PEM (env TLS_CERT_FILE).")
  String certificate;

  @Option(names = "--tls-private-key-file", paramLabel = "FILE",
      description = "The server's private key, PEM (env TLS_PRIVATE_KEY_FILE).")
  String key;

  @Option(names = "--webhook-port", paramLabel = "PORT",
      description = "The HTTPS port (env WEBHOOK_PORT; default " + DEFAULT_PORT + ").")
  String port;

  @Option(names = "--metrics-port", paramLabel = "PORT",
      description = "The Prometheus metrics port, plain HTTP (env METRICS_PORT; default none).")
  String metricsPort;

  @Spec
  CommandSpec spec;

  /** Creates the command; picocli sets its options from the command line and the environment. */
  public WebhookCommand() {}

  @Override
  public Integer call() throws Exception {
    LOG.info("{} webhook starting", DriverMain.buildInfo());
    SettingsCheck check = new SettingsCheck();
    String name = check.valid("DRIVER_NAME", driverName, NameRules::driverName)
        .orElse(DeviceDriver.DEFAULT_NAME);
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
      server = AdmissionWebhookServer
          .builder(AdmissionReviewHandler.of(name, DriverConfigs.SCHEME))
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
    spec.commandLine().getErr().println(spec.qualifiedName() + ": " + problems);
    return 2;
  }
}
