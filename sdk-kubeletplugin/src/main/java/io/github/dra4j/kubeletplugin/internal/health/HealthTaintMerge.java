package io.github.dra4j.kubeletplugin.internal.health;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.HealthTaints;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.resourceslice.Slice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The driver's resources with the taints its devices' health asks for added: a device of a pool
 * with a health report gets the {@link HealthTaints policy}'s taints after its own, except one
 * that equals (key and effect) a taint the driver set itself, which stays as the driver set it.
 * The driver's objects are not changed: a tainted device is a copy, everything else is shared.
 * Stateless.
 */
public final class HealthTaintMerge {

  private HealthTaintMerge() {}

  /**
   * The taints health asks for, per pool and device, for comparing one publish with the next.
   *
   * @param driverName the driver name
   * @param health every reported device
   * @param policy the taints of a health report
   * @return pool, then device name, to its non-empty list of taints
   */
  public static Map<String, Map<String, List<DeviceTaint>>> taints(String driverName,
      List<DeviceHealth> health, HealthTaints policy) {
    Map<String, Map<String, List<DeviceTaint>>> taints = new HashMap<>();
    for (DeviceHealth device : health) {
      List<DeviceTaint> own = List.copyOf(Objects.requireNonNull(
          policy.taints(driverName, device), "HealthTaints returned null"));
      if (!own.isEmpty()) {
        taints.computeIfAbsent(device.poolName(), p -> new HashMap<>())
            .put(device.deviceName(), own);
      }
    }
    return taints;
  }

  /**
   * Adds health taints to the driver's resources.
   *
   * @param resources what the driver published
   * @param taints from {@link #taints}
   * @return the resources to publish; {@code resources} itself when no device is tainted
   */
  public static DriverResources merge(DriverResources resources,
      Map<String, Map<String, List<DeviceTaint>>> taints) {
    if (resources == null || taints.isEmpty()) {
      return resources;
    }
    Map<String, Pool> pools = new LinkedHashMap<>();
    resources.pools().forEach((name, pool) -> {
      Map<String, List<DeviceTaint>> ofPool = taints.get(name);
      pools.put(name, ofPool == null ? pool : tainted(pool, ofPool));
    });
    return new DriverResources(pools);
  }

  private static Pool tainted(Pool pool, Map<String, List<DeviceTaint>> taints) {
    List<Slice> slices = new ArrayList<>();
    for (Slice slice : pool.slices()) {
      List<Device> devices = new ArrayList<>(slice.devices().size());
      for (Device device : slice.devices()) {
        List<DeviceTaint> extra = taints.get(device.getName());
        devices.add(extra == null ? device : tainted(device, extra));
      }
      slices.add(new Slice(devices, slice.sharedCounters(), slice.perDeviceNodeSelection()));
    }
    return new Pool(pool.nodeSelector(), pool.allNodes(), pool.generation(), slices);
  }

  private static Device tainted(Device device, List<DeviceTaint> extra) {
    List<DeviceTaint> all = new ArrayList<>();
    if (device.getTaints() != null) {
      all.addAll(device.getTaints());
    }
    for (DeviceTaint taint : extra) {
      boolean driverHasIt = all.stream().anyMatch(t -> Objects.equals(t.getKey(), taint.getKey())
          && Objects.equals(t.getEffect(), taint.getEffect()));
      if (!driverHasIt) {
        all.add(taint);
      }
    }
    return new DeviceBuilder(device).withTaints(all).build();
  }
}
