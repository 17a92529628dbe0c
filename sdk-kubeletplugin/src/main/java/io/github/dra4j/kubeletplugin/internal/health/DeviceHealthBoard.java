package io.github.dra4j.kubeletplugin.internal.health;

import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.DeviceHealthReporter;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The plugin's current picture of device health, and the streams that want every change.
 *
 * <p>Owned by one plugin. The map is guarded by this object's monitor; listeners are called
 * outside the lock with an immutable snapshot, so a slow stream cannot block a reporting driver.
 * Besides the streams ({@link #subscribe}), the plugin's own followers of changes ({@link
 * #watchChanges}: health taints, gauges) hear of each report, but not of the periodic refresh.
 */
public final class DeviceHealthBoard implements DeviceHealthReporter {

  private final Map<String, DeviceHealth> devices = new TreeMap<>();
  private final List<Consumer<List<DeviceHealth>>> listeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<List<DeviceHealth>>> changeListeners = new CopyOnWriteArrayList<>();

  @Override
  public void report(Collection<DeviceHealth> changed) {
    List<DeviceHealth> snapshot;
    synchronized (this) {
      for (DeviceHealth device : changed) {
        devices.put(key(device.poolName(), device.deviceName()), device);
      }
      snapshot = List.copyOf(devices.values());
    }
    publish(snapshot);
  }

  @Override
  public void replaceAll(Collection<DeviceHealth> all) {
    List<DeviceHealth> snapshot;
    synchronized (this) {
      devices.clear();
      for (DeviceHealth device : all) {
        devices.put(key(device.poolName(), device.deviceName()), device);
      }
      snapshot = List.copyOf(devices.values());
    }
    publish(snapshot);
  }

  @Override
  public void remove(String poolName, String deviceName) {
    List<DeviceHealth> snapshot;
    synchronized (this) {
      if (devices.remove(key(poolName, deviceName)) == null) {
        return;
      }
      snapshot = List.copyOf(devices.values());
    }
    publish(snapshot);
  }

  @Override
  public synchronized List<DeviceHealth> snapshot() {
    return List.copyOf(devices.values());
  }

  /**
   * Subscribes to snapshots; the listener gets the current snapshot at once.
   *
   * @param listener called with every new snapshot
   * @return a handle that unsubscribes
   */
  public Runnable subscribe(Consumer<List<DeviceHealth>> listener) {
    listeners.add(listener);
    listener.accept(snapshot());
    return () -> listeners.remove(listener);
  }

  /**
   * Follows the driver's reports: the listener gets the snapshot after every report, replacement
   * and removal, on the reporting thread (keep it short), but not the periodic refresh; it is not
   * a stream and not counted in {@link #subscriberCount()}.
   *
   * @param listener called with every snapshot a report made
   */
  public void watchChanges(Consumer<List<DeviceHealth>> listener) {
    changeListeners.add(listener);
  }

  /** Sends the current snapshot to every subscriber again, to refresh the kubelet's timeout. */
  public void republish() {
    refresh(snapshot());
  }

  /**
   * Number of open subscriptions (streams to the kubelet).
   *
   * @return the count
   */
  public int subscriberCount() {
    return listeners.size();
  }

  private void publish(List<DeviceHealth> snapshot) {
    for (Consumer<List<DeviceHealth>> listener : changeListeners) {
      listener.accept(snapshot);
    }
    refresh(snapshot);
  }

  private void refresh(List<DeviceHealth> snapshot) {
    for (Consumer<List<DeviceHealth>> listener : listeners) { // a snapshot: copy-on-write
      listener.accept(snapshot);
    }
  }

  private static String key(String pool, String device) {
    return pool + "\u0000" + device;
  }
}
