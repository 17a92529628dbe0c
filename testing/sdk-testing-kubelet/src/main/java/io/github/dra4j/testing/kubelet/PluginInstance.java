package io.github.dra4j.testing.kubelet;

import java.nio.file.Path;
import java.time.Instant;

/**
 * One registered instance of a driver: what it advertised, the service chosen for it, its
 * connection and its health stream.
 *
 * <p>Immutable apart from the health stream, which is attached once after creation. Owned by
 * {@link DriverInstances}, which closes it on deregistration and abandons it on restart or
 * shutdown.
 */
final class PluginInstance implements AutoCloseable {

  private final PluginValidation.Accepted info;
  private final Path registrationSocket;
  private final Instant registeredAt;
  private final PluginConnection connection;
  private volatile HealthStream healthStream;

  PluginInstance(PluginValidation.Accepted info, Path registrationSocket, Instant registeredAt,
      PluginConnection connection) {
    this.info = info;
    this.registrationSocket = registrationSocket;
    this.registeredAt = registeredAt;
    this.connection = connection;
  }

  String driver() {
    return info.driver();
  }

  String endpoint() {
    return info.endpoint();
  }

  DraService service() {
    return info.service();
  }

  HealthService healthService() {
    return info.healthService();
  }

  PluginConnection connection() {
    return connection;
  }

  boolean isConnected() {
    return connection.isConnected();
  }

  void attach(HealthStream stream) {
    this.healthStream = stream;
  }

  RegisteredPlugin view() {
    return new RegisteredPlugin(info.driver(), info.endpoint(), registrationSocket,
        info.service(), info.supportedServices(), info.healthService(), registeredAt,
        isConnected());
  }

  /** Deregistration: ends the health stream (which clears the driver's health) and disconnects. */
  @Override
  public void close() {
    HealthStream stream = healthStream;
    if (stream != null) {
      stream.close();
    }
    connection.close();
  }

  /** Restart or shutdown: ends the health stream without touching health, and disconnects. */
  void abandon() {
    HealthStream stream = healthStream;
    if (stream != null) {
      stream.abandon();
    }
    connection.close();
  }

  @Override
  public String toString() {
    return info.driver() + " at " + info.endpoint() + " (" + info.service().advertised() + ")";
  }
}
