package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The kubelet's checks of a {@code GetInfo} answer, with its error texts: the plugin type must
 * have a handler ({@code DRAPlugin}), an empty endpoint means the registration socket, and the
 * first advertised DRA service the kubelet knows is chosen. Stateless.
 */
final class PluginValidation {

  /** Prefix of every text the kubelet sends with {@code plugin_registered=false}. */
  static final String ERROR_PREFIX = "RegisterPlugin error -- ";

  private PluginValidation() {}

  /**
   * A plugin that passed validation.
   *
   * @param driver the driver name
   * @param endpoint the endpoint to call (never empty)
   * @param service the chosen DRA service
   * @param healthService the health service to stream from, or null
   * @param supportedServices what the plugin advertised, in its order
   */
  record Accepted(String driver, String endpoint, DraService service, HealthService healthService,
      List<String> supportedServices) {}

  /** The kubelet turned a plugin down; the message is what it notifies the plugin with. */
  static final class RejectedException extends Exception {
    private static final long serialVersionUID = 1L;

    RejectedException(String kubeletText) {
      super(kubeletText);
    }
  }

  /**
   * Validates a {@code GetInfo} answer.
   *
   * @param info the answer
   * @param socket the registration socket it came from
   * @param followHealth whether health streams are on
   * @return the accepted plugin
   * @throws RejectedException with the kubelet's text if the plugin is not acceptable
   */
  static Accepted validate(PluginInfo info, Path socket, boolean followHealth)
      throws RejectedException {
    if (!ServiceNames.PLUGIN_TYPE.equals(info.getType())) {
      throw new RejectedException(ERROR_PREFIX + "no handler registered for plugin type: "
          + info.getType() + " at socket " + socket);
    }
    String endpoint = info.getEndpoint().isEmpty() ? socket.toString() : info.getEndpoint();
    List<String> advertised = List.copyOf(info.getSupportedVersionsList());
    DraService service = chooseService(advertised);
    HealthService health = followHealth ? HealthService.choose(advertised) : null;
    return new Accepted(info.getName(), endpoint, service, health, advertised);
  }

  private static DraService chooseService(List<String> advertised) throws RejectedException {
    if (advertised.isEmpty()) {
      throw validationFailed("empty list of supported gRPC services (aka supported versions)");
    }
    for (String entry : advertised) {
      Optional<DraService> known = DraService.fromAdvertised(entry);
      if (known.isPresent()) {
        return known.get();
      }
    }
    List<String> kubelet = Arrays.stream(DraService.values()).map(DraService::advertised).toList();
    throw validationFailed("none of services supported by the plugin (" + goList(advertised)
        + ") are supported by the kubelet (" + goList(kubelet) + ")");
  }

  /**
   * The text for a second instance of a driver that reports an endpoint already in use.
   *
   * @param driver the driver
   * @param endpoint the duplicate endpoint
   * @return the kubelet's text
   */
  static String duplicateEndpoint(String driver, String endpoint) {
    return ERROR_PREFIX + "plugin registration failed with err: endpoint " + endpoint
        + " already registered for DRA driver plugin " + driver;
  }

  private static RejectedException validationFailed(String reason) {
    return new RejectedException(ERROR_PREFIX + "plugin validation failed with err: " + reason);
  }

  /** A string list the way Go prints a slice with {@code %v}: {@code [a b]}. */
  private static String goList(List<String> values) {
    return "[" + String.join(" ", values) + "]";
  }
}
