package io.github.dra4j.testing.kubelet;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * All registered instances of all drivers, each driver's in registration order, and the kubelet's
 * rules on top of them: which instance a call goes to, when a driver counts as usable, and when its
 * node-local ResourceSlices are to be wiped.
 *
 * <p>Thread-safe; all state is guarded by this object's monitor, which waiters also use. Lock
 * order: a {@link PluginRegistration} may call in here while holding its own lock; this class
 * calls the {@link SliceWiper} while holding this lock, never the other way round. Instances are
 * closed outside the lock.
 */
final class DriverInstances {

  private final Map<String, List<PluginInstance>> byDriver = new LinkedHashMap<>();
  private final UnixChannels channels;
  private final SliceWiper wiper;
  private final HealthMonitor health;
  private final Clock clock;

  DriverInstances(UnixChannels channels, SliceWiper wiper, HealthMonitor health, Clock clock) {
    this.channels = channels;
    this.wiper = wiper;
    this.health = health;
    this.clock = clock;
  }

  /**
   * Adds a validated instance as the newest of its driver, connects to its endpoint and opens its
   * health stream. Cancels a pending wipe of the driver's slices.
   *
   * @param accepted the validated plugin
   * @param registrationSocket where it was discovered
   * @return the new instance
   * @throws PluginValidation.RejectedException if the driver already has an instance with this
   *     endpoint
   */
  synchronized PluginInstance register(PluginValidation.Accepted accepted, Path registrationSocket)
      throws PluginValidation.RejectedException {
    List<PluginInstance> instances = byDriver.computeIfAbsent(accepted.driver(),
        d -> new ArrayList<>());
    for (PluginInstance existing : instances) {
      if (existing.endpoint().equals(accepted.endpoint())) {
        throw new PluginValidation.RejectedException(
            PluginValidation.duplicateEndpoint(accepted.driver(), accepted.endpoint()));
      }
    }
    PluginConnection[] self = new PluginConnection[1];
    self[0] = new PluginConnection(channels.open(accepted.endpoint()),
        connected -> connectivityChanged(self[0], connected));
    PluginInstance instance = new PluginInstance(accepted, registrationSocket, clock.instant(),
        self[0]);
    instances.add(instance);
    self[0].start();
    instance.attach(health.open(instance));
    wiper.cancel(accepted.driver());
    notifyAll();
    return instance;
  }

  /**
   * Removes the instance of a driver with the given endpoint and closes it; schedules the wipe of
   * the driver's slices if no connected instance is left.
   *
   * @param driver the driver
   * @param endpoint the instance's endpoint
   * @return true if such an instance was registered
   */
  boolean deregister(String driver, String endpoint) {
    PluginInstance removed = null;
    synchronized (this) {
      List<PluginInstance> instances = byDriver.getOrDefault(driver, List.of());
      for (PluginInstance instance : instances) {
        if (instance.endpoint().equals(endpoint)) {
          removed = instance;
          break;
        }
      }
      if (removed == null) {
        return false;
      }
      instances.remove(removed);
      if (instances.isEmpty()) {
        byDriver.remove(driver);
      }
      if (!isUsable(driver)) {
        wiper.schedule(driver, this::isUsable);
      }
      notifyAll();
    }
    removed.close();
    return true;
  }

  private synchronized void connectivityChanged(PluginConnection connection, boolean connected) {
    for (Map.Entry<String, List<PluginInstance>> driver : byDriver.entrySet()) {
      for (PluginInstance instance : driver.getValue()) {
        if (instance.connection() == connection) {
          if (connected) {
            wiper.cancel(driver.getKey());
          } else if (!isUsable(driver.getKey())) {
            wiper.schedule(driver.getKey(), this::isUsable);
          }
          notifyAll();
          return;
        }
      }
    }
  }

  /**
   * The instance a call for the driver goes to: the most recently registered one whose connection
   * is up, else the most recently registered one.
   *
   * @param driver the driver
   * @return the instance, or empty if the driver is not registered
   */
  synchronized Optional<PluginInstance> choose(String driver) {
    List<PluginInstance> instances = byDriver.getOrDefault(driver, List.of());
    for (int i = instances.size() - 1; i >= 0; i--) {
      if (instances.get(i).isConnected()) {
        return Optional.of(instances.get(i));
      }
    }
    return instances.isEmpty()
        ? Optional.empty()
        : Optional.of(instances.get(instances.size() - 1));
  }

  /**
   * Whether at least one instance of the driver is connected.
   *
   * @param driver the driver
   * @return true if the driver is usable
   */
  synchronized boolean isUsable(String driver) {
    return byDriver.getOrDefault(driver, List.of()).stream().anyMatch(PluginInstance::isConnected);
  }

  /**
   * Snapshots of all instances, grouped by driver in order of first registration, each driver's
   * in registration order.
   *
   * @return the snapshots
   */
  synchronized List<RegisteredPlugin> all() {
    return byDriver.values().stream().flatMap(List::stream).map(PluginInstance::view).toList();
  }

  /**
   * Waits until the registered instances satisfy a condition.
   *
   * @param condition checked against {@link #all()} after every change
   * @param timeout how long to wait
   * @param what what is awaited, for the error message
   * @return the snapshots that satisfied the condition
   * @throws IllegalStateException if the timeout passes first (naming what was registered)
   */
  synchronized List<RegisteredPlugin> await(
      Predicate<List<RegisteredPlugin>> condition, Duration timeout, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<RegisteredPlugin> now = all();
      if (condition.test(now)) {
        return now;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new IllegalStateException(
            "timed out after " + timeout + " waiting for " + what + "; registered: " + now);
      }
      try {
        // Connection state can change a moment before its callback arrives: re-check regularly.
        wait(Math.max(1, Math.min(Duration.ofNanos(left).toMillis(), 100)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
    }
  }

  /** Forgets all instances without scheduling wipes (restart or shutdown) and abandons them. */
  void clear() {
    List<PluginInstance> removed = new ArrayList<>();
    synchronized (this) {
      byDriver.values().forEach(removed::addAll);
      byDriver.clear();
      notifyAll();
    }
    removed.forEach(PluginInstance::abandon);
  }
}
