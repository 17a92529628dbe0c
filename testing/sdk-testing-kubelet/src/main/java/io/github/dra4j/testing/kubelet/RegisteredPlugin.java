package io.github.dra4j.testing.kubelet;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A snapshot of one registered plugin instance as the fake kubelet sees it.
 *
 * @param driver the DRA driver name the plugin gave
 * @param endpoint the DRA socket the kubelet calls (the registration socket when the plugin gave
 *     none)
 * @param registrationSocket the registration socket the instance was discovered by
 * @param service the DRA node service the kubelet chose for this instance
 * @param supportedServices what the plugin advertised, in its order
 * @param healthService the health stream service the kubelet follows, or null if none is
 *     advertised (or health streams are off)
 * @param registeredAt when registration completed
 * @param connected whether the kubelet's connection to the endpoint was up when the snapshot was
 *     taken
 */
public record RegisteredPlugin(
    String driver,
    String endpoint,
    Path registrationSocket,
    DraService service,
    List<String> supportedServices,
    HealthService healthService,
    Instant registeredAt,
    boolean connected) {

  /**
   * Copies the service list and rejects missing fields other than {@code healthService}.
   *
   * @param driver the DRA driver name the plugin gave
   * @param endpoint the DRA socket the kubelet calls
   * @param registrationSocket the registration socket the instance was discovered by
   * @param service the DRA node service the kubelet chose for this instance
   * @param supportedServices what the plugin advertised, in its order
   * @param healthService the health stream service the kubelet follows, or null
   * @param registeredAt when registration completed
   * @param connected whether the kubelet's connection to the endpoint was up
   */
  public RegisteredPlugin {
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(registrationSocket, "registrationSocket");
    Objects.requireNonNull(service, "service");
    supportedServices = List.copyOf(supportedServices);
    Objects.requireNonNull(registeredAt, "registeredAt");
  }
}
