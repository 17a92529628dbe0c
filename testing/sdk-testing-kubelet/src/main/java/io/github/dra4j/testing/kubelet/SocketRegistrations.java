package io.github.dra4j.testing.kubelet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@link PluginRegistration} per registration socket the watcher reports: a new socket starts
 * one, a re-created socket replaces it (deregistering the old instance first), a removed socket
 * ends it and deregisters its instance.
 *
 * <p>Thread-safe; the map is guarded by this object's monitor (outermost in the lock order).
 */
final class SocketRegistrations implements RegistryWatcher.Listener {

  private final RegistrationContext context;
  private final Map<Path, PluginRegistration> bySocket = new HashMap<>();

  SocketRegistrations(RegistrationContext context) {
    this.context = context;
  }

  @Override
  public synchronized void socketAdded(Path socket) {
    PluginRegistration old = bySocket.remove(socket);
    if (old != null) {
      old.cancel(true);
    }
    PluginRegistration registration = new PluginRegistration(socket, context);
    bySocket.put(socket, registration);
    registration.start();
  }

  @Override
  public synchronized void socketRemoved(Path socket) {
    PluginRegistration old = bySocket.remove(socket);
    if (old != null) {
      old.cancel(true);
    }
  }

  /** Stops all registrations without deregistering (the caller drops the instances). */
  void forgetAll() {
    List<PluginRegistration> all;
    synchronized (this) {
      all = new ArrayList<>(bySocket.values());
      bySocket.clear();
    }
    all.forEach(registration -> registration.cancel(false));
  }
}
