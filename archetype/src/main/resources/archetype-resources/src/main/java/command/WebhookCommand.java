package ${package}.command;

import ${package}.DeviceDriver;
import ${package}.config.DriverConfigs;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.option.SettingsCheck;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServer;
import java.nio.file.Path;
import java.util.Optional;
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
 * (8443), the certificate files re-read when cert-manager rotates them; runs until SIGTERM.
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

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    LOG.info("{} webhook starting", DriverMain.buildInfo());
    SettingsCheck check = new SettingsCheck();
    String name = check.valid("DRIVER_NAME", driverName, NameRules::driverName)
        .orElse(DeviceDriver.DEFAULT_NAME);
    Optional<String> certificateFile = check.required("TLS_CERT_FILE", certificate,
        "the server's certificate chain, PEM (--tls-cert-file)");
    Optional<String> keyFile = check.required("TLS_PRIVATE_KEY_FILE", key,
        "the server's private key, PEM (--tls-private-key-file)");
    int number = check.port("WEBHOOK_PORT", port).orElse(DEFAULT_PORT);
    if (!check.problems().isEmpty()) {
      spec.commandLine().getErr().println(spec.qualifiedName() + ": "
          + String.join("; ", check.problems()));
      return 2;
    }
    AdmissionWebhookServer server = AdmissionWebhookServer
        .builder(AdmissionReviewHandler.of(name, DriverConfigs.SCHEME))
        .tls(Path.of(certificateFile.orElseThrow()), Path.of(keyFile.orElseThrow()))
        .port(number)
        .start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "webhook-shutdown"));
    LOG.info("Admission webhook for {} listening on port {}", name, server.port());
    server.awaitTermination(); // until SIGTERM closes the server
    return 0;
  }
}
