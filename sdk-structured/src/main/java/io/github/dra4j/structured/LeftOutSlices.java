package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec;
import io.github.dra4j.structured.AllocationExplanation.NotConsidered;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * For explanations: the slices of the cluster whose devices an explanation for one node does not
 * list, summed up per pool and reason: the node's slices {@link PoolGathering} drops for an older
 * generation (also a whole pool made obsolete by a newer generation for another node), other
 * nodes' slices of an older generation than their pool's newest, slices that need the
 * partitionable-devices feature while it is off, and slices without a driver or pool name. Also sums up, per pool and node, the devices of other nodes
 * that a request's selectors do not match. Immutable once built.
 */
final class LeftOutSlices {

  private final List<NotConsidered> summary;
  private final Set<ResourceSlice> leftOut;

  private LeftOutSlices(List<NotConsidered> summary, Set<ResourceSlice> leftOut) {
    this.summary = List.copyOf(summary);
    this.leftOut = Collections.unmodifiableSet(leftOut);
  }

  /**
   * Sorts out the slices left out: those the gathering for the node dropped as superseded, and
   * of the others' slices those of an older generation than their pool's newest.
   */
  static LeftOutSlices of(List<ResourceSlice> slices, AllocatorFeatures features,
      PoolGathering gathering) {
    Map<List<String>, Long> newest = new HashMap<>();
    for (ResourceSlice slice : slices) {
      if (readable(slice)) {
        newest.merge(key(slice), generation(slice), Math::max);
      }
    }
    Map<List<String>, List<String>> grouped = new TreeMap<>(LeftOutSlices::compareKeys);
    Set<ResourceSlice> leftOut = Collections.newSetFromMap(new IdentityHashMap<>());
    for (ResourceSlice slice : slices) {
      String name = slice.getMetadata() == null ? ""
          : String.valueOf(slice.getMetadata().getName());
      String reason;
      List<String> pool;
      if (!readable(slice)) {
        pool = List.of("", "");
        reason = "spec.driver or spec.pool.name is missing, not considered";
      } else {
        pool = key(slice);
        ResourceSliceSpec spec = slice.getSpec();
        long latest = newest.get(pool);
        boolean older = gathering.superseded().contains(slice)
            || (generation(slice) < latest && !gathering.targetsNode(slice));
        if (older) {
          reason = "generation " + generation(slice) + " superseded by generation " + latest
              + ", not considered";
        } else if (!features.partitionableDevices()
            && (Boolean.TRUE.equals(spec.getPerDeviceNodeSelection())
                || !NodeSelection.nonNull(spec.getSharedCounters()).isEmpty())) {
          reason = "uses shared counters or per-device node selection and the"
              + " DRAPartitionableDevices feature is off, not considered";
        } else {
          continue;
        }
      }
      leftOut.add(slice);
      grouped.computeIfAbsent(List.of(pool.get(0), pool.get(1), reason), k -> new ArrayList<>())
          .add(name);
    }
    List<NotConsidered> summary = new ArrayList<>();
    grouped.forEach((k, names) -> summary.add(new NotConsidered(k.get(0), k.get(1),
        names.stream().sorted().toList(), k.get(2))));
    return new LeftOutSlices(summary, leftOut);
  }

  /** Returns the summary lines, in driver, pool and reason order. */
  List<NotConsidered> summary() {
    return summary;
  }

  /** Tells whether a slice is left out on every node. */
  boolean contains(ResourceSlice slice) {
    return leftOut.contains(slice);
  }

  /**
   * Sums up devices of other nodes a request does not match: one line per pool and node.
   *
   * @param unmatched the devices, in any order
   */
  static List<NotConsidered> unmatched(List<PoolDevice> unmatched) {
    Map<List<String>, List<PoolDevice>> byPool = new TreeMap<>(LeftOutSlices::compareKeys);
    for (PoolDevice device : unmatched) {
      byPool.computeIfAbsent(List.of(device.id().driver(), device.id().pool(), where(device)),
          k -> new ArrayList<>()).add(device);
    }
    List<NotConsidered> lines = new ArrayList<>();
    byPool.forEach((k, devices) -> {
      Map<String, Boolean> slices = new LinkedHashMap<>();
      devices.stream().map(d -> String.valueOf(d.slice().getMetadata().getName())).sorted()
          .forEach(s -> slices.put(s, true));
      lines.add(new NotConsidered(k.get(0), k.get(1), List.copyOf(slices.keySet()),
          devices.size() + (devices.size() == 1 ? " device " : " devices ") + k.get(2)
              + (devices.size() == 1 ? " does" : " do") + " not match the request's selectors"));
    });
    return lines;
  }

  private static String where(PoolDevice device) {
    ResourceSliceSpec spec = device.slice().getSpec();
    if (spec.getNodeName() != null && !spec.getNodeName().isEmpty()) {
      return "for node " + spec.getNodeName();
    }
    if (device.device().getNodeName() != null && !device.device().getNodeName().isEmpty()) {
      return "for node " + device.device().getNodeName();
    }
    return "for other nodes";
  }

  private static boolean readable(ResourceSlice slice) {
    ResourceSliceSpec spec = slice.getSpec();
    return spec != null && spec.getPool() != null && spec.getPool().getName() != null
        && spec.getDriver() != null;
  }

  private static List<String> key(ResourceSlice slice) {
    return List.of(slice.getSpec().getDriver(), slice.getSpec().getPool().getName());
  }

  private static long generation(ResourceSlice slice) {
    Long generation = slice.getSpec().getPool().getGeneration();
    return generation == null ? 0 : generation;
  }

  private static int compareKeys(List<String> a, List<String> b) {
    Comparator<List<String>> order = Comparator.comparing((List<String> k) -> k.get(0))
        .thenComparing(k -> k.get(1)).thenComparing(k -> k.get(2));
    return order.compare(a, b);
  }
}
