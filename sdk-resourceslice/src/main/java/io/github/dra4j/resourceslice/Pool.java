package io.github.dra4j.resourceslice;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.github.dra4j.core.stability.KubernetesAlpha;
import io.github.dra4j.resourceslice.internal.split.SliceSplitter;
import java.util.ArrayList;
import java.util.List;

/**
 * One resource pool as the driver wants it published: where its devices are reachable and the
 * slices it is made of.
 *
 * <p>Node selection: a node-local driver (Node owner, no reconcile-pool-with-name) sets neither
 * {@code nodeSelector} nor {@code allNodes}; the controller sets {@code spec.nodeName}. Otherwise
 * exactly one of {@code nodeSelector}, {@code allNodes} or per-device node selection on the slices
 * must be used.
 *
 * <p>Slices are given either explicitly ({@link Builder#addSlice}) or, with {@link
 * Builder#devices} and {@link Builder#sharedCounters}, as one flat list that the builder cuts into
 * slices within the API limits (see {@link SliceSplitter}).
 *
 * @param nodeSelector nodes that can reach the pool's devices, or null
 * @param allNodes true if every node can reach them
 * @param generation a floor for the published pool generation (0: let the controller choose)
 * @param slices the slices in index order (index = name prefix = allocation priority)
 */
public record Pool(NodeSelector nodeSelector, boolean allNodes, long generation,
    List<Slice> slices) {

  /**
   * Copies the slice list; rejects a negative generation.
   *
   * @param nodeSelector nodes that can reach the pool's devices, or null when the pool uses {@code
   *     allNodes}, per-device node selection, or is node-local
   * @param allNodes true if every node can reach the pool's devices
   * @param generation the lowest generation to publish the pool with; 0 lets the controller
   *     choose. Must not be negative.
   * @param slices the slices in index order; null becomes empty, null elements are rejected
   * @throws IllegalArgumentException if {@code generation} is negative
   */
  public Pool {
    if (generation < 0) {
      throw new IllegalArgumentException("pool generation must not be negative: " + generation);
    }
    slices = slices == null ? List.of() : List.copyOf(slices);
  }

  /**
   * Starts building a pool.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Counts the devices of all slices.
   *
   * @return the number of devices in the pool
   */
  public int deviceCount() {
    return slices.stream().mapToInt(s -> s.devices().size()).sum();
  }

  /** Builds a {@link Pool}. Not thread-safe. */
  public static final class Builder {
    private NodeSelector nodeSelector;
    private boolean allNodes;
    private long generation;
    private final List<Slice> slices = new ArrayList<>();
    private final List<Device> flatDevices = new ArrayList<>();
    private final List<CounterSet> flatCounterSets = new ArrayList<>();
    private boolean flat;
    private Boolean perDeviceNodeSelection;
    private boolean devicesMayBeTainted;

    private Builder() {}

    /**
     * Sets the node selector (one term).
     *
     * @param nodeSelector the selector, or null
     * @return this builder
     */
    public Builder nodeSelector(NodeSelector nodeSelector) {
      this.nodeSelector = nodeSelector;
      return this;
    }

    /**
     * Makes the pool reachable from every node.
     *
     * @param allNodes true for all nodes
     * @return this builder
     */
    public Builder allNodes(boolean allNodes) {
      this.allNodes = allNodes;
      return this;
    }

    /**
     * Sets the generation floor.
     *
     * @param generation the lowest generation to publish, 0 for none
     * @return this builder
     */
    public Builder generation(long generation) {
      this.generation = generation;
      return this;
    }

    /**
     * Appends an explicit slice (cannot be mixed with the flat form).
     *
     * @param slice the slice
     * @return this builder
     */
    public Builder addSlice(Slice slice) {
      slices.add(slice);
      return this;
    }

    /**
     * Appends explicit slices (cannot be mixed with the flat form).
     *
     * @param slices the slices
     * @return this builder
     */
    public Builder slices(List<Slice> slices) {
      this.slices.addAll(slices);
      return this;
    }

    /**
     * Flat form: appends devices that {@link #build()} splits into slices.
     *
     * @param devices the devices, in allocation-priority order
     * @return this builder
     */
    public Builder devices(List<Device> devices) {
      flat = true;
      flatDevices.addAll(devices);
      return this;
    }

    /**
     * Flat form: appends counter sets that {@link #build()} puts into their own slices.
     *
     * <p>Partitionable devices: Kubernetes feature DRAPartitionableDevices, alpha in 1.33, beta and
     * on by default in 1.36.
     *
     * @param counterSets the counter sets
     * @return this builder
     */
    @KubernetesAlpha(feature = "DRAPartitionableDevices", since = "1.33", beta = "1.36")
    public Builder sharedCounters(List<CounterSet> counterSets) {
      flat = true;
      flatCounterSets.addAll(counterSets);
      return this;
    }

    /**
     * Flat form: sets per-device node selection on every generated slice (partitionable devices,
     * beta in Kubernetes 1.36).
     *
     * @param perDeviceNodeSelection true, false or null
     * @return this builder
     */
    public Builder perDeviceNodeSelection(Boolean perDeviceNodeSelection) {
      flat = true;
      this.perDeviceNodeSelection = perDeviceNodeSelection;
      return this;
    }

    /**
     * Flat form: cut device slices at 64 devices even while no device has taints, so that a
     * device gaining a taint later rewrites one slice instead of all of them. Device taints are
     * Kubernetes feature DRADeviceTaints: alpha in 1.33, beta and on by default in 1.36.
     *
     * @param mayBeTainted true if devices can be tainted at runtime (e.g. on health changes)
     * @return this builder
     */
    @KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
    public Builder devicesMayBeTainted(boolean mayBeTainted) {
      flat = true;
      this.devicesMayBeTainted = mayBeTainted;
      return this;
    }

    /**
     * Builds the pool, splitting the flat form into slices.
     *
     * @return the pool
     * @throws IllegalStateException if explicit slices and the flat form are mixed
     */
    public Pool build() {
      if (flat && !slices.isEmpty()) {
        throw new IllegalStateException(
            "a pool is given either as explicit slices or as a flat device list, not both");
      }
      List<Slice> result = flat
          ? SliceSplitter.split(flatDevices, flatCounterSets, perDeviceNodeSelection,
              devicesMayBeTainted)
          : slices;
      return new Pool(nodeSelector, allNodes, generation, result);
    }
  }
}
