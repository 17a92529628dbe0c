package io.github.dra4j.resourceslice.internal.validation;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.resourceslice.Slice;
import io.github.dra4j.resourceslice.internal.split.SliceLimits;
import io.github.dra4j.resourceslice.internal.split.SliceSplitter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a pool before anything is sent, one message per violation. First come the four
 * consistency checks of the Go controller with its exact texts (duplicate counter sets,
 * duplicate devices, unknown counter sets, unknown counters); then the pool name, node selection
 * and the API server's limits (devices per slice, counter sets, taints, ...) with the per-device rules in {@link DeviceRules}. Messages name
 * the pool, slice index, device and field: {@code pool "p", slice #0, device "gpu-0":
 * attributes["x"]: Invalid value: ...}. Stateless.
 */
public final class PoolValidator {

  private final boolean controllerSetsNodeName;

  /**
   * Creates a validator.
   *
   * @param controllerSetsNodeName true when the controller writes {@code spec.nodeName} (Node
   *     owner without reconcile-pool-with-name), so pools must not select nodes themselves
   */
  public PoolValidator(boolean controllerSetsNodeName) {
    this.controllerSetsNodeName = controllerSetsNodeName;
  }

  /**
   * Checks a driver name (validated once, at controller start).
   *
   * @param driverName the name
   * @return the problem, or empty
   */
  public static Optional<String> driverName(String driverName) {
    return NameRules.driverName(driverName)
        .map(problem -> "DRA driver name \"" + driverName + "\": " + problem);
  }

  /**
   * Validates a pool.
   *
   * @param poolName the pool name
   * @param pool the pool
   * @return the violations in check order; empty if the pool may be published
   */
  public List<String> validate(String poolName, Pool pool) {
    List<String> violations = new ArrayList<>();
    consistency(poolName, pool, violations);
    NameRules.poolName(poolName)
        .ifPresent(p -> violations.add("pool \"" + poolName + "\": name: " + p));
    NodeSelector selector = pool.nodeSelector();
    if (selector != null) {
      int terms = selector.getNodeSelectorTerms() == null ? 0 : selector.getNodeSelectorTerms().size();
      if (terms != 1) {
        violations.add("pool \"" + poolName + "\": nodeSelector.nodeSelectorTerms: Invalid value: "
            + terms + ": must have exactly one term");
      }
    }
    for (int i = 0; i < pool.slices().size(); i++) {
      slice(poolName, pool, i, violations);
    }
    return violations;
  }

  /** Rule G12, with the Go controller's messages, in its order. */
  private static void consistency(String poolName, Pool pool, List<String> violations) {
    Map<String, CounterSet> counterSets = new HashMap<>();
    for (Slice slice : pool.slices()) {
      for (CounterSet set : slice.sharedCounters()) {
        if (counterSets.putIfAbsent(set.getName(), set) != null) {
          violations.add("found duplicate counter set \"" + set.getName() + "\" in pool \""
              + poolName + "\"");
        }
      }
    }
    Set<String> deviceNames = new HashSet<>();
    for (Slice slice : pool.slices()) {
      for (Device device : slice.devices()) {
        if (!deviceNames.add(device.getName())) {
          violations.add("found duplicate device \"" + device.getName() + "\" in pool \""
              + poolName + "\"");
        }
        for (DeviceCounterConsumption consumption : nullSafe(device.getConsumesCounters())) {
          CounterSet set = counterSets.get(consumption.getCounterSet());
          if (set == null) {
            violations.add("counter set \"" + consumption.getCounterSet()
                + "\" referenced by device \"" + device.getName() + "\" not found");
            continue;
          }
          Map<String, Counter> available = set.getCounters() == null ? Map.of() : set.getCounters();
          for (String counter : nullSafe(consumption.getCounters()).keySet()) {
            if (!available.containsKey(counter)) {
              violations.add("counter \"" + counter + "\" referenced by device \""
                  + device.getName() + "\" not found in counter set \"" + set.getName() + "\"");
            }
          }
        }
      }
    }
  }

  private void slice(String poolName, Pool pool, int index, List<String> violations) {
    Slice slice = pool.slices().get(index);
    String where = "pool \"" + poolName + "\", slice #" + index;
    if (!slice.devices().isEmpty() && !slice.sharedCounters().isEmpty()) {
      violations.add(where + ": devices and sharedCounters: a slice holds devices or shared"
          + " counters, not both");
    }
    boolean restricted = slice.devices().stream().anyMatch(SliceSplitter::isRestricted);
    int limit = restricted ? SliceLimits.MAX_DEVICES_WITH_TAINTS_OR_COUNTERS : SliceLimits.MAX_DEVICES;
    if (slice.devices().size() > limit) {
      violations.add(where + ": devices: Too many: " + slice.devices().size()
          + ": must have at most " + limit + " items"
          + (restricted ? " when a device has taints or consumes counters" : ""));
    }
    if (slice.sharedCounters().size() > SliceLimits.MAX_COUNTER_SETS) {
      violations.add(where + ": sharedCounters: Too many: " + slice.sharedCounters().size()
          + ": must have at most " + SliceLimits.MAX_COUNTER_SETS + " items");
    }
    List<String> selections = new ArrayList<>();
    if (controllerSetsNodeName) {
      selections.add("nodeName");
    }
    if (pool.nodeSelector() != null) {
      selections.add("nodeSelector");
    }
    if (pool.allNodes()) {
      selections.add("allNodes");
    }
    if (Boolean.TRUE.equals(slice.perDeviceNodeSelection())) {
      selections.add("perDeviceNodeSelection");
    }
    if (selections.size() != 1) {
      violations.add(where + ": node selection: exactly one of nodeName (set by the controller"
          + " for a Node owner), nodeSelector, allNodes, perDeviceNodeSelection must be set, found "
          + (selections.isEmpty() ? "none" : String.join(", ", selections)));
    }
    for (int k = 0; k < slice.sharedCounters().size(); k++) {
      counterSet(where, k, slice.sharedCounters().get(k), violations);
    }
    boolean perDevice = Boolean.TRUE.equals(slice.perDeviceNodeSelection());
    for (Device device : slice.devices()) {
      DeviceRules.check(where + ", device \"" + device.getName() + "\"", device, perDevice,
          violations);
    }
  }

  private static void counterSet(String where, int index, CounterSet set, List<String> violations) {
    String field = where + ": sharedCounters[" + index + "]";
    NameRules.dnsLabel(set.getName()).ifPresent(p -> violations.add(field + ".name: " + p));
    Map<String, Counter> counters = nullSafe(set.getCounters());
    if (counters.isEmpty()) {
      violations.add(field + ".counters: Required value");
    }
    if (counters.size() > SliceLimits.MAX_COUNTERS_PER_SET) {
      violations.add(field + ".counters: Too many: " + counters.size() + ": must have at most "
          + SliceLimits.MAX_COUNTERS_PER_SET + " items");
    }
    counters.forEach((name, counter) -> {
      NameRules.dnsLabel(name).ifPresent(p -> violations.add(field + ".counters: " + p));
      if (counter == null || counter.getValue() == null) {
        violations.add(field + ".counters[\"" + name + "\"].value: Required value");
      }
    });
  }

  static <T> List<T> nullSafe(List<T> list) {
    return list == null ? List.of() : list;
  }

  static <K, V> Map<K, V> nullSafe(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }
}
