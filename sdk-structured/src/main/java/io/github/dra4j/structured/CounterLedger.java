package io.github.dra4j.structured;

import io.github.dra4j.core.quantity.QuantityValue;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shared counters of partitionable devices: per pool, what the counter sets offer minus what
 * allocated devices consume, and what the devices chosen in the current attempt consume on top.
 * Mutable search state; owned by one attempt.
 */
final class CounterLedger {

  /** Pool id to counter set to counter to available amount. */
  private final Map<String, Map<String, Map<String, QuantityValue>>> available = new HashMap<>();
  /** Pool id to counter set to counter to amount chosen in this attempt. */
  private final Map<String, Map<String, Map<String, QuantityValue>>> chosen = new HashMap<>();
  private final Map<DeviceId, String> poolOfDevice = new HashMap<>();
  /** Pool id to counter set to counter to what the set offers, before any allocation. */
  private final Map<String, Map<String, Map<String, QuantityValue>>> offered = new HashMap<>();

  CounterLedger(List<Pool> pools, AllocatedState allocated) {
    for (Pool pool : pools) {
      offered.put(pool.id(), pool.counterSets());
      Map<String, Map<String, QuantityValue>> sets = new LinkedHashMap<>();
      pool.counterSets().forEach((set, counters) -> sets.put(set, new LinkedHashMap<>(counters)));
      for (List<PoolDevice> devices : List.of(pool.devices(), pool.otherDevices())) {
        for (PoolDevice device : devices) {
          poolOfDevice.put(device.id(), pool.id());
          if (allocated.inUse(device.id())) {
            apply(sets, device, false);
          }
        }
      }
      available.put(pool.id(), sets);
      chosen.put(pool.id(), new HashMap<>());
    }
  }

  /**
   * Adds the device's consumption to the attempt if every counter still fits.
   *
   * @return true when consumed; false (nothing changed) when a counter would be exceeded
   */
  boolean tryConsume(PoolDevice device) {
    String pool = poolOfDevice.get(device.id());
    Map<String, Map<String, QuantityValue>> running = chosen.get(pool);
    Map<String, Map<String, QuantityValue>> limits = available.get(pool);
    for (Map.Entry<String, Map<String, QuantityValue>> use : device.counterUse().entrySet()) {
      for (Map.Entry<String, QuantityValue> amount : use.getValue().entrySet()) {
        QuantityValue total = running.getOrDefault(use.getKey(), Map.of())
            .getOrDefault(amount.getKey(), QuantityValue.ZERO).add(amount.getValue());
        QuantityValue limit = limits.getOrDefault(use.getKey(), Map.of())
            .getOrDefault(amount.getKey(), QuantityValue.ZERO);
        if (total.compareTo(limit) > 0) {
          return false;
        }
      }
    }
    apply(running, device, true);
    return true;
  }

  /**
   * Says which counter a device alone would exceed, next to what allocated devices consume.
   *
   * @return e.g. {@code counter set gpu-0-counters: counter memory: needs 40Gi, 20Gi of 80Gi
   *     left after the devices already allocated}, or {@code ...: needs 40Gi, the counter set has
   *     only 20Gi} when allocated devices consume none of that counter; null when every counter
   *     fits
   */
  String shortfall(PoolDevice device) {
    String pool = poolOfDevice.get(device.id());
    Map<String, Map<String, QuantityValue>> limits = available.getOrDefault(pool, Map.of());
    for (Map.Entry<String, Map<String, QuantityValue>> use : device.counterUse().entrySet()) {
      for (Map.Entry<String, QuantityValue> amount : use.getValue().entrySet()) {
        QuantityValue limit = limits.getOrDefault(use.getKey(), Map.of())
            .getOrDefault(amount.getKey(), QuantityValue.ZERO);
        if (amount.getValue().compareTo(limit) > 0) {
          QuantityValue total = offered.getOrDefault(pool, Map.of())
              .getOrDefault(use.getKey(), Map.of())
              .getOrDefault(amount.getKey(), QuantityValue.ZERO);
          String prefix = "counter set " + use.getKey() + ": counter " + amount.getKey()
              + ": needs " + amount.getValue().toKubernetesString() + ", ";
          if (limit.compareTo(total) >= 0) {
            return prefix + "the counter set has only " + total.toKubernetesString();
          }
          return prefix + (limit.signum() < 0 ? QuantityValue.ZERO : limit).toKubernetesString()
              + " of " + total.toKubernetesString() + " left after the devices already allocated";
        }
      }
    }
    return null;
  }

  /** Removes the device's consumption from the attempt (undo of {@link #tryConsume}). */
  void release(PoolDevice device) {
    apply(chosen.get(poolOfDevice.get(device.id())), device, false);
  }

  private static void apply(
      Map<String, Map<String, QuantityValue>> totals, PoolDevice device, boolean add) {
    for (Map.Entry<String, Map<String, QuantityValue>> use : device.counterUse().entrySet()) {
      Map<String, QuantityValue> set = totals.computeIfAbsent(use.getKey(), k -> new HashMap<>());
      for (Map.Entry<String, QuantityValue> amount : use.getValue().entrySet()) {
        QuantityValue current = set.getOrDefault(amount.getKey(), QuantityValue.ZERO);
        set.put(amount.getKey(),
            add ? current.add(amount.getValue()) : current.subtract(amount.getValue()));
      }
    }
  }
}
