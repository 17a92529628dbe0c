package io.github.dra4j.resourceslice.internal.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.resourceapi.ResourceApiRules;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts ResourceSlices between the {@code v1} model the controller works with and the fabric8
 * model of the version the server speaks. The conversion itself is the API server's ({@link
 * ResourceApiRules#convert}): {@code v1beta2} has the shape of {@code v1}, {@code v1beta1} nests
 * every device field except {@code name} under {@code basic} and has no unset {@code nodeName}
 * and {@code allNodes} (empty and false stand for unset). Fields an older version does not know
 * travel along and are dropped by the server (the controller then reports dropped fields).
 * Thread-safe.
 */
public final class SliceConversion {

  private final KubernetesSerialization serialization;

  /**
   * Creates a converter.
   *
   * @param serialization the fabric8 serializer
   */
  public SliceConversion(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  /**
   * Converts a v1 slice into another version (a new object; the input is not changed).
   *
   * @param slice the v1 slice
   * @param version the target version
   * @return the slice as an object of {@link SliceVersion#type()}
   */
  public HasMetadata fromV1(ResourceSlice slice, SliceVersion version) {
    ObjectNode tree = tree(slice, SliceVersion.V1);
    return serialization.convertValue(ResourceApiRules.convert(tree, version.apiVersion()),
        version.type());
  }

  /**
   * Converts a slice of any supported version into the v1 model (always a new object).
   *
   * @param slice a slice object of one of the {@link SliceVersion} types
   * @return the v1 slice
   */
  public ResourceSlice toV1(HasMetadata slice) {
    ObjectNode tree = tree(slice, versionOf(slice));
    return serialization.convertValue(
        ResourceApiRules.convert(tree, SliceVersion.V1.apiVersion()), ResourceSlice.class);
  }

  /** The object as JSON, with the {@code apiVersion} and {@code kind} of its model class. */
  private ObjectNode tree(HasMetadata slice, SliceVersion version) {
    ObjectNode tree = serialization.convertValue(slice, ObjectNode.class);
    tree.put("apiVersion", version.apiVersion());
    tree.put("kind", "ResourceSlice");
    return tree;
  }

  private static SliceVersion versionOf(HasMetadata slice) {
    for (SliceVersion version : SliceVersion.values()) {
      if (version.type().isInstance(slice)) {
        return version;
      }
    }
    throw new IllegalArgumentException("not a ResourceSlice of a supported version: "
        + slice.getClass().getName());
  }
}
