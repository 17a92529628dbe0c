package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the allocator sees of the cluster for one allocation: the DeviceClasses, <em>all</em>
 * ResourceSlices (also those of other nodes, which decide whether a pool is complete), the node
 * to allocate for (name and labels) and the claims that are already allocated (their devices are
 * in use). Immutable; the lists are copied, the objects in them are not and must not be changed
 * while an allocation runs.
 *
 * @param deviceClasses the DeviceClasses, looked up by name
 * @param slices every ResourceSlice of the cluster
 * @param nodeName the node the claims are allocated for
 * @param nodeLabels that node's labels (for node selectors)
 * @param allocatedClaims claims whose {@code status.allocation} is set
 */
public record AllocatorInputs(
    List<DeviceClass> deviceClasses,
    List<ResourceSlice> slices,
    String nodeName,
    Map<String, String> nodeLabels,
    List<ResourceClaim> allocatedClaims) {

  /**
   * Copies the collections and checks that nothing is null.
   *
   * @param deviceClasses the DeviceClasses claims may name; the first class of each name counts,
   *     classes without a name are ignored
   * @param slices every ResourceSlice of the cluster, of all nodes and drivers
   * @param nodeName the node the claims are allocated for, compared with {@code spec.nodeName} of
   *     slices; not null (empty, the builder's default, matches no node-bound slice)
   * @param nodeLabels that node's labels, matched against node selectors of slices and devices
   * @param allocatedClaims claims whose {@code status.allocation} is set; their devices, counters
   *     and consumed capacity are in use
   * @throws NullPointerException if a collection, an element, a label or {@code nodeName} is null
   */
  public AllocatorInputs {
    deviceClasses = List.copyOf(deviceClasses);
    slices = List.copyOf(slices);
    Objects.requireNonNull(nodeName, "nodeName");
    nodeLabels = Map.copyOf(nodeLabels);
    allocatedClaims = List.copyOf(allocatedClaims);
  }

  /**
   * Returns an empty builder.
   *
   * @return a builder without classes, slices or allocated claims, for a node with empty name and
   *     no labels
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns a builder pre-filled with these inputs, e.g. to add one more allocated claim.
   *
   * @return a new builder holding the same classes, slices, node and allocated claims; adding to
   *     it does not change this record
   */
  public Builder toBuilder() {
    return new Builder()
        .deviceClasses(deviceClasses)
        .slices(slices)
        .node(nodeName, nodeLabels)
        .allocatedClaims(allocatedClaims);
  }

  /** Collects inputs; not thread-safe, use from one thread. */
  public static final class Builder {
    private final List<DeviceClass> deviceClasses = new ArrayList<>();
    private final List<ResourceSlice> slices = new ArrayList<>();
    private String nodeName = "";
    private final Map<String, String> nodeLabels = new LinkedHashMap<>();
    private final List<ResourceClaim> allocatedClaims = new ArrayList<>();

    private Builder() {}

    /**
     * Adds DeviceClasses.
     *
     * @param classes classes to append; for a repeated name the one added first counts
     * @return this builder
     */
    public Builder deviceClasses(List<DeviceClass> classes) {
      deviceClasses.addAll(classes);
      return this;
    }

    /**
     * Adds DeviceClasses.
     *
     * @param classes classes to append; for a repeated name the one added first counts
     * @return this builder
     */
    public Builder deviceClasses(DeviceClass... classes) {
      return deviceClasses(List.of(classes));
    }

    /**
     * Adds ResourceSlices.
     *
     * @param more slices to append, of any node or driver; those not reaching the node are
     *     still needed to tell whether a pool is complete
     * @return this builder
     */
    public Builder slices(List<ResourceSlice> more) {
      slices.addAll(more);
      return this;
    }

    /**
     * Adds ResourceSlices.
     *
     * @param more slices to append, of any node or driver; those not reaching the node are
     *     still needed to tell whether a pool is complete
     * @return this builder
     */
    public Builder slices(ResourceSlice... more) {
      return slices(List.of(more));
    }

    /**
     * Sets the node by name and labels, replacing any node set before.
     *
     * @param name the node name, compared with {@code spec.nodeName} of slices; not null
     * @param labels the node's labels, matched against node selectors; replaces earlier labels
     * @return this builder
     * @throws NullPointerException if {@code name} is null
     */
    public Builder node(String name, Map<String, String> labels) {
      this.nodeName = Objects.requireNonNull(name, "name");
      nodeLabels.clear();
      nodeLabels.putAll(labels);
      return this;
    }

    /**
     * Sets the node by name, without labels.
     *
     * @param name the node name, compared with {@code spec.nodeName} of slices; not null
     * @return this builder
     * @throws NullPointerException if {@code name} is null
     */
    public Builder node(String name) {
      return node(name, Map.of());
    }

    /**
     * Sets the node from a Node object (its name and labels).
     *
     * @param node the Node; its {@code metadata.name} must be set, missing labels mean none
     * @return this builder
     * @throws NullPointerException if the Node has no metadata or no name
     */
    public Builder node(Node node) {
      Map<String, String> labels = node.getMetadata().getLabels();
      return node(node.getMetadata().getName(), labels == null ? Map.of() : labels);
    }

    /**
     * Adds claims that already have an allocation.
     *
     * @param claims claims with {@code status.allocation} set; their devices count as in use
     * @return this builder
     */
    public Builder allocatedClaims(List<ResourceClaim> claims) {
      allocatedClaims.addAll(claims);
      return this;
    }

    /**
     * Adds claims that already have an allocation.
     *
     * @param claims claims with {@code status.allocation} set; their devices count as in use
     * @return this builder
     */
    public Builder allocatedClaims(ResourceClaim... claims) {
      return allocatedClaims(List.of(claims));
    }

    /**
     * Builds the inputs.
     *
     * @return immutable inputs holding copies of the collected lists and labels
     * @throws NullPointerException if a null element or label was added
     */
    public AllocatorInputs build() {
      return new AllocatorInputs(deviceClasses, slices, nodeName, nodeLabels, allocatedClaims);
    }
  }
}
