package io.github.dra4j.webhook.internal.env;

import io.github.dra4j.core.option.SettingsCheck;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The settings a driver's webhook Deployment passes as environment variables, read and checked
 * with the kubelet plugin's rules and wording: a variable that is missing or empty is unset, a
 * malformed one is refused with its name and value. Immutable.
 *
 * @param certificateFile {@value #TLS_CERT_FILE}: the PEM certificate chain, leaf first
 * @param keyFile {@value #TLS_PRIVATE_KEY_FILE}: the PEM private key
 * @param port {@value #WEBHOOK_PORT}: the HTTPS port, 0 for a random one
 * @param metricsPort {@value #METRICS_PORT}: the Prometheus endpoint's port, -1 for none, 0 for a
 *     random one
 */
public record WebhookEnvironment(Optional<Path> certificateFile, Optional<Path> keyFile,
    OptionalInt port, OptionalInt metricsPort) {

  /** The certificate chain's file, as a {@code kubernetes.io/tls} Secret mounts {@code tls.crt}. */
  public static final String TLS_CERT_FILE = "TLS_CERT_FILE";
  /** The private key's file, as a {@code kubernetes.io/tls} Secret mounts {@code tls.key}. */
  public static final String TLS_PRIVATE_KEY_FILE = "TLS_PRIVATE_KEY_FILE";
  /** The HTTPS port. */
  public static final String WEBHOOK_PORT = "WEBHOOK_PORT";
  /** The metrics endpoint's port, as the kubelet plugin names it. */
  public static final String METRICS_PORT = "METRICS_PORT";

  /** Every variable read, in the order of the README's table. */
  public static final List<String> VARIABLES = List.of(TLS_CERT_FILE, TLS_PRIVATE_KEY_FILE,
      WEBHOOK_PORT, METRICS_PORT);

  /**
   * Reads the variables.
   *
   * @param environment the process environment, such as {@code System.getenv()}
   * @return the settings found
   * @throws IllegalArgumentException listing every malformed variable as {@code NAME="value":
   *     why}
   */
  public static WebhookEnvironment read(Map<String, String> environment) {
    SettingsCheck check = new SettingsCheck();
    WebhookEnvironment settings = new WebhookEnvironment(
        path(check, TLS_CERT_FILE, environment), path(check, TLS_PRIVATE_KEY_FILE, environment),
        check.port(WEBHOOK_PORT, environment.get(WEBHOOK_PORT)),
        check.integer(METRICS_PORT, environment.get(METRICS_PORT), -1, 65535,
            "want a port from 0 to 65535, or -1 for none"));
    check.throwIfProblems();
    return settings;
  }

  private static Optional<Path> path(SettingsCheck check, String name,
      Map<String, String> environment) {
    return check.valid(name, environment.get(name), text -> text.indexOf('\0') < 0
        ? Optional.empty() : Optional.of("want a file path")).map(Path::of);
  }
}
