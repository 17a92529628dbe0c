package io.github.dra4j.resourceslice.internal.sync;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePool;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.github.dra4j.resourceslice.Owner;
import io.github.dra4j.resourceslice.Slice;

/**
 * Builds the ResourceSlice objects the controller creates, in one place: the sync sends them and
 * the pool validator checks them with the API server's rules before anything is sent. A new
 * slice has {@code generateName} ({@link SliceNames}), an owner reference with {@code controller:
 * true} when there is an owner, the driver, the pool header, {@code spec.nodeName} when the
 * controller sets it (Node owner, no pool reconciled by name), the pool's node selector or
 * all-nodes flag, and the slice's devices, counter sets and per-device node selection.
 * Immutable and thread-safe.
 */
public final class NewSlices {

  private final String driverName;
  private final Owner owner;
  private final String nodeName;

  /**
   * Creates the builder.
   *
   * @param driverName the driver
   * @param owner the owner of new slices, or null
   * @param nodeName {@code spec.nodeName} of new slices (the owner Node's name, unless one pool
   *     is reconciled by name), or null
   */
  public NewSlices(String driverName, Owner owner, String nodeName) {
    this.driverName = driverName;
    this.owner = owner;
    this.nodeName = nodeName;
  }

  /**
   * Returns the driver name.
   *
   * @return the driver
   */
  public String driverName() {
    return driverName;
  }

  /**
   * Returns the owner of new slices.
   *
   * @return the owner, or null
   */
  public Owner owner() {
    return owner;
  }

  /**
   * Returns the node name new slices carry.
   *
   * @return {@code spec.nodeName}, or null when the controller does not set it
   */
  public String nodeName() {
    return nodeName;
  }

  /**
   * Builds a slice to create. The lists of {@code content} are shared, not copied: the client
   * converts the object to a new one before sending it, and validation reads it as JSON.
   *
   * @param ownerUid the owner's UID for the owner reference (ignored without owner)
   * @param header the pool header ({@code spec.pool}); its slice count sets the width of the
   *     index prefix of the name
   * @param index the slice's index in the pool
   * @param nodeSelector the pool's node selector, or null
   * @param allNodes whether every node reaches the pool
   * @param content the slice's devices, counter sets and per-device node selection
   * @return the new object, without name (the server completes {@code generateName})
   */
  public ResourceSlice build(String ownerUid, ResourcePool header, int index,
      NodeSelector nodeSelector, boolean allNodes, Slice content) {
    int sliceCount = header.getResourceSliceCount() == null ? 0
        : header.getResourceSliceCount().intValue();
    ObjectMetaBuilder metadata = new ObjectMetaBuilder().withGenerateName(
        SliceNames.generateName(index, SliceNames.padWidth(sliceCount), driverName,
            owner == null ? null : owner.name()));
    if (owner != null) {
      metadata.withOwnerReferences(new OwnerReferenceBuilder()
          .withApiVersion(owner.apiVersion()).withKind(owner.kind()).withName(owner.name())
          .withUid(ownerUid).withController(true).build());
    }
    return new ResourceSliceBuilder()
        .withMetadata(metadata.build())
        .withNewSpec()
        .withDriver(driverName)
        .withPool(header)
        .withNodeName(nodeName)
        .withNodeSelector(nodeSelector)
        .withAllNodes(allNodes ? Boolean.TRUE : null)
        .withDevices(content.devices())
        .withSharedCounters(content.sharedCounters())
        .withPerDeviceNodeSelection(content.perDeviceNodeSelection())
        .endSpec()
        .build();
  }
}
