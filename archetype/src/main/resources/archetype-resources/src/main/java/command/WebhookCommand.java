package ${package}.command;

import ${package}.DeviceDriver;
import ${package}.config.DriverConfigs;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    List<String> problems = new ArrayList<>();
    String name = SettingChecks.driverName(driverName, DeviceDriver.DEFAULT_NAME, problems);
    String certificateFile = SettingChecks.required("TLS_CERT_FILE", "--tls-cert-file",
        certificate, "the server's certificate chain", problems);
    String keyFile = SettingChecks.required("TLS_PRIVATE_KEY_FILE", "--tls-private-key-file",
        key, "the server's private key", problems);
    int number = SettingChecks.number("WEBHOOK_PORT", port, DEFAULT_PORT, 0, 65535, problems);
    if (!problems.isEmpty()) {
      spec.commandLine().getErr().println(spec.qualifiedName() + ": "
          + String.join("; ", problems));
      return 2;
    }
    AdmissionWebhookServer server = AdmissionWebhookServer
        .builder(AdmissionReviewHandler.of(name, DriverConfigs.SCHEME))
        .tls(Path.of(certificateFile), Path.of(keyFile))
        .port(number)
        .start();
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "webhook-shutdown"));
    LOG.info("Admission webhook for {} listening on port {}", name, server.port());
    server.awaitTermination(); // until SIGTERM closes the server
    return 0;
  }
}
