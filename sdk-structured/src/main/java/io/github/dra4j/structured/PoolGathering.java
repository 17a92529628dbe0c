package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.github.dra4j.core.quantity.QuantityValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gathers the resource pools relevant for one node from all slices of the cluster: which slices
 * target the node, the newest generation per pool, completeness against {@code
 * resourceSliceCount}, validity (duplicate names, unknown counters, bad quantities) and the pool
 * order (driver, then pool name; pools with binding conditions last). Remembers the slices
 * targeting the node that it drops for an older generation (for explanations); owned by one
 * allocation attempt.
 */
final class PoolGathering {

  private static final Logger LOG = LoggerFactory.getLogger(PoolGathering.class);

  private final AllocatorFeatures features;
  private final NodeSelection node;
  private final Set<ResourceSlice> superseded = Collections.newSetFromMap(new IdentityHashMap<>());

  PoolGathering(AllocatorFeatures features, NodeSelection node) {
    this.features = features;
    this.node = node;
  }

  /**
   * Returns the pools in scan order, with device positions assigned.
   *
   * @throws AllocationError when a slice's node selector cannot be parsed
   */
  List<Pool> gather(List<ResourceSlice> slices) throws AllocationError {
    Map<List<String>, List<ResourceSlice>> kept = new LinkedHashMap<>();
    for (ResourceSlice slice : slices) {
      ResourceSliceSpec spec = slice.getSpec();
      if (spec == null || spec.getPool() == null || spec.getPool().getName() == null
          || spec.getDriver() == null) {
        LOG.warn("ignoring ResourceSlice {}: spec.driver or spec.pool.name is missing",
            slice.getMetadata() == null ? null : slice.getMetadata().getName());
        continue;
      }
      if (!relevant(slice, spec)) {
        continue;
      }
      List<String> key = List.of(String.valueOf(spec.getDriver()),
          String.valueOf(spec.getPool().getName()));
      List<ResourceSlice> current = kept.get(key);
      long generation = generation(slice);
      if (current == null || generation > generation(current.get(0))) {
        if (current != null) {
          superseded.addAll(current);
        }
        current = new ArrayList<>();
        kept.put(key, current);
        current.add(slice);
      } else if (generation == generation(current.get(0))) {
        current.add(slice);
      } else {
        superseded.add(slice);
      }
    }
    List<Pool> pools = new ArrayList<>();
    for (Map.Entry<List<String>, List<ResourceSlice>> entry : kept.entrySet()) {
      Pool pool = complete(entry.getKey(), entry.getValue(), slices);
      if (pool != null) {
        pools.add(pool);
      } else {
        superseded.addAll(entry.getValue());
      }
    }
    Comparator<Pool> byName = Comparator.comparing(Pool::driver).thenComparing(Pool::name);
    pools.sort(Comparator.comparing(Pool::bindingConditions).thenComparing(byName));
    int position = 0;
    int ordinal = 0;
    for (Pool pool : pools) {
      for (PoolDevice device : pool.devices()) {
        device.place(pool.usable() ? position++ : -1, ordinal++);
      }
    }
    return pools;
  }

  private boolean relevant(ResourceSlice slice, ResourceSliceSpec spec) throws AllocationError {
    boolean perDevice = Boolean.TRUE.equals(spec.getPerDeviceNodeSelection());
    if (!features.partitionableDevices()
        && (perDevice || !NodeSelection.nonNull(spec.getSharedCounters()).isEmpty())) {
      return false;
    }
    if (spec.getNodeName() != null && !spec.getNodeName().isEmpty()) {
      return spec.getNodeName().equals(node.nodeName());
    }
    if (Boolean.TRUE.equals(spec.getAllNodes())) {
      return true;
    }
    if (spec.getNodeSelector() != null) {
      return selects(slice, spec.getNodeSelector());
    }
    if (perDevice) {
      for (Device device : NodeSelection.nonNull(spec.getDevices())) {
        if (deviceTargetsNodeQuietly(device)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Returns the slices targeting the node that the last {@link #gather} dropped because their
   * pool has a newer generation (their own node's or another's).
   */
  Set<ResourceSlice> superseded() {
    return Collections.unmodifiableSet(superseded);
  }

  /**
   * Returns whether a slice reaches the node (for explanations), false when it cannot be read.
   */
  boolean targetsNode(ResourceSlice slice) {
    ResourceSliceSpec spec = slice.getSpec();
    if (spec == null || spec.getPool() == null || spec.getPool().getName() == null
        || spec.getDriver() == null) {
      return false;
    }
    try {
      return relevant(slice, spec);
    } catch (AllocationError e) {
      return false;
    }
  }

  private boolean selects(ResourceSlice slice, NodeSelector selector) throws AllocationError {
    try {
      return node.matches(selector);
    } catch (IllegalArgumentException e) {
      throw new AllocationError(
          "gather pool information: failed to perform node selection for slice "
              + slice.getMetadata().getName()
              + ": failed to parse node selector: "
              + e.getMessage(),
          e);
    }
  }

  private boolean deviceTargetsNodeQuietly(Device device) {
    try {
      return deviceTargetsNode(device);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Per-device node selection: the device's own nodeName, allNodes or nodeSelector.
   *
   * @throws IllegalArgumentException when the device's node selector cannot be parsed
   */
  boolean deviceTargetsNode(Device device) {
    if (device.getNodeName() != null && !device.getNodeName().isEmpty()) {
      return device.getNodeName().equals(node.nodeName());
    }
    if (Boolean.TRUE.equals(device.getAllNodes())) {
      return true;
    }
    return device.getNodeSelector() != null && node.matches(device.getNodeSelector());
  }

  private static long generation(ResourceSlice slice) {
    Long generation = slice.getSpec().getPool().getGeneration();
    return generation == null ? 0 : generation;
  }

  private static long sliceCount(ResourceSlice slice) {
    Long count = slice.getSpec().getPool().getResourceSliceCount();
    return count == null ? 0 : count;
  }

  /** Decides completeness (P4) and builds the pool; null when the pool is obsolete. */
  private Pool complete(List<String> key, List<ResourceSlice> targeting, List<ResourceSlice> all) {
    long generation = generation(targeting.get(0));
    long expected = sliceCount(targeting.get(0));
    List<ResourceSlice> others = new ArrayList<>();
    boolean incomplete = false;
    if (targeting.size() != expected) {
      List<ResourceSlice> sameGeneration = new ArrayList<>();
      for (ResourceSlice slice : all) {
        ResourceSliceSpec spec = slice.getSpec();
        if (spec == null
            || spec.getPool() == null
            || !key.get(0).equals(String.valueOf(spec.getDriver()))
            || !key.get(1).equals(String.valueOf(spec.getPool().getName()))) {
          continue;
        }
        if (generation(slice) > generation) {
          return null;
        }
        if (generation(slice) == generation) {
          sameGeneration.add(slice);
        }
      }
      if (sameGeneration.size() == expected) {
        Set<ResourceSlice> targetingSet = Collections.newSetFromMap(new IdentityHashMap<>());
        targetingSet.addAll(targeting);
        for (ResourceSlice slice : sameGeneration) {
          if (!targetingSet.contains(slice)) {
            others.add(slice);
          }
        }
      } else {
        incomplete = true;
      }
    }
    return build(key.get(0), key.get(1), targeting, others, incomplete);
  }

  private Pool build(
      String driver, String name, List<ResourceSlice> targeting, List<ResourceSlice> others,
      boolean incomplete) {
    Comparator<ResourceSlice> bySliceName = Comparator
        .comparing(s -> String.valueOf(s.getMetadata().getName()));
    List<ResourceSlice> sortedTargeting = new ArrayList<>(targeting);
    sortedTargeting.sort(bySliceName);
    List<ResourceSlice> sortedOthers = new ArrayList<>(others);
    sortedOthers.sort(bySliceName);
    List<PoolDevice> devices = new ArrayList<>();
    List<PoolDevice> otherDevices = new ArrayList<>();
    Map<String, Map<String, QuantityValue>> counterSets = new LinkedHashMap<>();
    String invalid = null;
    boolean binding = false;
    try {
      invalid = collectCounterSets(sortedTargeting, sortedOthers, counterSets);
      Set<String> names = new HashSet<>();
      for (ResourceSlice slice : sortedTargeting) {
        if (isCounterSetSlice(slice)) {
          continue;
        }
        List<Device> sliceDevices = NodeSelection.nonNull(slice.getSpec().getDevices());
        for (int i = 0; i < sliceDevices.size(); i++) {
          Device device = sliceDevices.get(i);
          if ((device.getName() == null || device.getName().isEmpty()) && invalid == null) {
            invalid = "slice " + slice.getMetadata().getName() + ": device #" + i
                + ": name is missing";
          }
          if (!names.add(device.getName()) && invalid == null) {
            invalid = "duplicate device name " + device.getName();
          }
          PoolDevice poolDevice = PoolDevice.of(slice, device);
          devices.add(poolDevice);
          binding |= !poolDevice.bindingConditions().isEmpty();
        }
      }
      for (ResourceSlice slice : sortedOthers) {
        if (!isCounterSetSlice(slice)) {
          for (Device device : NodeSelection.nonNull(slice.getSpec().getDevices())) {
            otherDevices.add(PoolDevice.of(slice, device));
          }
        }
      }
    } catch (IllegalArgumentException e) {
      invalid = invalid != null ? invalid : e.getMessage();
    }
    if (invalid == null && features.partitionableDevices()) {
      invalid = unknownCounters(devices, otherDevices, counterSets);
    }
    return new Pool(driver, name, List.copyOf(devices), List.copyOf(otherDevices),
        counterSets, incomplete, invalid, binding);
  }

  private boolean isCounterSetSlice(ResourceSlice slice) {
    return features.partitionableDevices()
        && !NodeSelection.nonNull(slice.getSpec().getSharedCounters()).isEmpty();
  }

  private String collectCounterSets(
      List<ResourceSlice> targeting, List<ResourceSlice> others,
      Map<String, Map<String, QuantityValue>> counterSets) {
    if (!features.partitionableDevices()) {
      return null;
    }
    String invalid = null;
    List<ResourceSlice> all = new ArrayList<>(targeting);
    all.addAll(others);
    all.sort(Comparator.comparing(s -> String.valueOf(s.getMetadata().getName())));
    for (ResourceSlice slice : all) {
      for (CounterSet set : NodeSelection.nonNull(slice.getSpec().getSharedCounters())) {
        if (counterSets.containsKey(set.getName()) && invalid == null) {
          invalid = "duplicate counter set name " + set.getName();
        }
        counterSets.put(set.getName(), PoolDevice.counterSet(slice, set));
      }
    }
    return invalid;
  }

  private static String unknownCounters(
      List<PoolDevice> devices, List<PoolDevice> others,
      Map<String, Map<String, QuantityValue>> counterSets) {
    List<PoolDevice> all = new ArrayList<>(devices);
    all.addAll(others);
    for (PoolDevice device : all) {
      for (Map.Entry<String, Map<String, QuantityValue>> use : device.counterUse().entrySet()) {
        Map<String, QuantityValue> set = counterSets.get(use.getKey());
        if (set == null) {
          return "counter set " + use.getKey() + " not found";
        }
        for (String counter : use.getValue().keySet()) {
          if (!set.containsKey(counter)) {
            return "counter " + counter + " not found in counter set " + use.getKey();
          }
        }
      }
    }
    return null;
  }
}
