package io.github.dra4j.resourceslice.internal.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts ResourceSlices between the {@code v1} model the controller works with and the version
 * the server speaks. {@code v1beta2} has the same shape as {@code v1}; {@code v1beta1} nests every
 * device field except {@code name} under {@code basic}. Fields an older version does not know
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
    ObjectNode tree = serialization.convertValue(slice, ObjectNode.class);
    tree.put("apiVersion", version.apiVersion());
    tree.put("kind", "ResourceSlice");
    if (version == SliceVersion.V1BETA1) {
      JsonNode devices = tree.path("spec").path("devices");
      for (int i = 0; i < devices.size(); i++) {
        ObjectNode device = (ObjectNode) devices.get(i);
        JsonNode name = device.remove("name");
        ObjectNode basic = device.deepCopy();
        device.removeAll();
        if (name != null) {
          device.set("name", name);
        }
        device.set("basic", basic);
      }
    }
    return serialization.convertValue(tree, version.type());
  }

  /**
   * Converts a slice of any supported version into the v1 model (always a new object).
   *
   * @param slice a slice object of one of the {@link SliceVersion} types
   * @return the v1 slice
   */
  public ResourceSlice toV1(HasMetadata slice) {
    ObjectNode tree = serialization.convertValue(slice, ObjectNode.class);
    boolean beta1 = SliceVersion.V1BETA1.apiVersion().equals(tree.path("apiVersion").asString(""))
        || slice instanceof io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceSlice;
    tree.put("apiVersion", SliceVersion.V1.apiVersion());
    tree.put("kind", "ResourceSlice");
    if (beta1) {
      JsonNode devices = tree.path("spec").path("devices");
      for (int i = 0; i < devices.size(); i++) {
        ObjectNode device = (ObjectNode) devices.get(i);
        JsonNode basic = device.remove("basic");
        if (basic != null && basic.isObject()) {
          for (Map.Entry<String, JsonNode> field : basic.properties()) {
            device.set(field.getKey(), field.getValue());
          }
        }
      }
    }
    return serialization.convertValue(tree, ResourceSlice.class);
  }
}
