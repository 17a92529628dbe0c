package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.option.SettingsCheck;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.config.GpuConfigs;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import io.github.dra4j.webhook.AdmissionWebhookServer;
import java.nio.file.Path;
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
 * (8443), certificate files re-read when cert-manager rotates them; runs until SIGTERM. Exit
 * status 143 after SIGTERM (the JVM's, once the server has closed), 2 for bad settings, 70 when
 * the server fails fatally (an {@link Error} such as running out of memory, or its listening
 * socket closing), so that the container restarts instead of living on without serving.
 */
@Command(name = "webhook", mixinStandardHelpOptions = true,
    description = "Runs the admission webhook for the driver's opaque configurations.")
public final class WebhookCommand implements Callable<Integer> {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookCommand.class);

  @Option(names = "--driver-name", defaultValue = "${env:DRIVER_NAME}", paramLabel = "NAME",
      description = "The DRA driver name whose configurations are checked (env DRIVER_NAME).")
  String driverName;

  @Option(names = "--tls-cert-file", defaultValue = "${env:TLS_CERT_FILE}", required = true,
      paramLabel = "FILE", description = "The server certificate chain, PEM (env TLS_CERT_FILE).")
  Path certificate;

  @Option(names = "--tls-private-key-file", defaultValue = "${env:TLS_PRIVATE_KEY_FILE}",
      required = true, paramLabel = "FILE",
      description = "The server's private key, PEM (env TLS_PRIVATE_KEY_FILE).")
  Path key;

  @Option(names = "--webhook-port", defaultValue = "${env:WEBHOOK_PORT:-8443}",
      paramLabel = "PORT", description = "The HTTPS port (env WEBHOOK_PORT; default 8443).")
  String port;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    LOG.info("{} webhook starting", GpuDriverMain.buildInfo());
    SettingsCheck check = new SettingsCheck();
    String name = check.valid("DRIVER_NAME", driverName, NameRules::driverName)
        .orElse(GpuDriver.DEFAULT_NAME);
    int number = check.port("WEBHOOK_PORT", port).orElse(8443);
    if (!check.problems().isEmpty()) {
      spec.commandLine().getErr().println("gpu-driver webhook: "
          + String.join("; ", check.problems()));
      return 2;
    }
    AdmissionWebhookServer server = AdmissionWebhookServer.builder(
        AdmissionReviewHandler.of(name, GpuConfigs.SCHEME)).tls(certificate, key).port(number)
        .start();
    Thread hook = new Thread(server::close, "webhook-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    LOG.info("Admission webhook for {} listening on port {}", name, server.port());
    server.awaitTermination();
    return 0;
  }
}
