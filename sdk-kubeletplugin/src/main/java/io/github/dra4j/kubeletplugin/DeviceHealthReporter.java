package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.Collection;
import java.util.List;

/**
 * Where a driver pushes device health changes. The plugin keeps the current picture and streams
 * complete snapshots to the kubelet: at once when the kubelet connects, on every change, and
 * periodically so devices do not time out to "unknown". Thread-safe.
 */
@KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
public interface DeviceHealthReporter {

  /**
   * Adds or updates devices; devices not mentioned keep their last state.
   *
   * @param devices the changed devices
   */
  void report(Collection<DeviceHealth> devices);

  /**
   * Adds or updates devices.
   *
   * @param devices the changed devices
   */
  default void report(DeviceHealth... devices) {
    report(List.of(devices));
  }

  /**
   * Replaces the whole picture: devices not in the list are no longer reported.
   *
   * @param devices every device the driver knows
   */
  void replaceAll(Collection<DeviceHealth> devices);

  /**
   * Stops reporting one device.
   *
   * @param poolName its pool
   * @param deviceName its name
   */
  void remove(String poolName, String deviceName);

  /**
   * The current picture, ordered by pool and device name.
   *
   * @return an immutable snapshot
   */
  List<DeviceHealth> snapshot();
}
