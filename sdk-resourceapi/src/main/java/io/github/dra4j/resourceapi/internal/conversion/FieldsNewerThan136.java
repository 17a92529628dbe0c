package io.github.dra4j.resourceapi.internal.conversion;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fields of the fabric8 8.0.0 {@code v1} model that Kubernetes 1.36 does not know at all
 * (they came with 1.37). kube-apiserver 1.36 treats them as unknown fields: dropped while
 * decoding, with an {@code unknown field "<path>"} warning (or an error with strict field
 * validation). In one place:
 *
 * <pre>
 * ResourceSlice  spec.partitionTypeAttribute               (DRAPartitionableDevicesType)
 *                spec.skipNodeOperations                   (DRAOptionalNodeOperations)
 *                spec.devices[].nodeAllocatableResources   (reshaped 1.36 field, see below)
 *                spec.devices[].consumesCounters[].compatibilityGroups
 *                                                          (DRADeviceCompatibilityGroups)
 * ResourceClaim  spec.devices.requests[].exactly.derivedAttributes (DRADerivedAttributes)
 *                spec.devices.requests[].firstAvailable[].derivedAttributes
 *                status.allocation.devices.results[].skipNodeOperations
 * Template       spec.spec.devices.requests[]... derivedAttributes, as in a claim
 * </pre>
 *
 * <p>DeviceClass and DeviceTaintRule have none (but {@code v1} DeviceTaintRule itself only exists
 * from 1.37). The reverse case, a 1.36 field fabric8 does not have, is {@code
 * spec.devices[].nodeAllocatableResourceMappings} (gate DRANodeAllocatableResources): it stays in
 * the device's additional properties and the ResourceSlice strategy drops it like a gated field.
 */
public final class FieldsNewerThan136 {

  private FieldsNewerThan136() {}

  /**
   * Removes the fields newer than 1.36 from a {@code v1} object (as converted by {@link
   * VersionConversion#toV1}), in place.
   *
   * @param v1Object the object, changed in place
   * @return the paths removed, e.g. {@code spec.devices[0].nodeAllocatableResources}
   */
  public static List<String> strip(ObjectNode v1Object) {
    List<String> removed = new ArrayList<>();
    String kind = v1Object.path("kind").asString("");
    switch (kind) {
      case "ResourceSlice" -> slice(v1Object.path("spec"), "spec.", removed);
      case "ResourceClaim" -> {
        requests(v1Object.path("spec").path("devices"), "spec.devices.", removed);
        JsonNode results = v1Object.path("status").path("allocation").path("devices")
            .path("results");
        for (int i = 0; i < results.size(); i++) {
          remove(results.get(i), "skipNodeOperations",
              "status.allocation.devices.results[" + i + "].", removed);
        }
      }
      case "ResourceClaimTemplate" -> requests(v1Object.path("spec").path("spec")
          .path("devices"), "spec.spec.devices.", removed);
      default -> {
      }
    }
    return removed;
  }

  private static void slice(JsonNode spec, String prefix, List<String> removed) {
    remove(spec, "partitionTypeAttribute", prefix, removed);
    remove(spec, "skipNodeOperations", prefix, removed);
    JsonNode devices = spec.path("devices");
    for (int i = 0; i < devices.size(); i++) {
      String devicePrefix = prefix + "devices[" + i + "].";
      remove(devices.get(i), "nodeAllocatableResources", devicePrefix, removed);
      JsonNode consumes = devices.get(i).path("consumesCounters");
      for (int j = 0; j < consumes.size(); j++) {
        remove(consumes.get(j), "compatibilityGroups",
            devicePrefix + "consumesCounters[" + j + "].", removed);
      }
    }
  }

  private static void requests(JsonNode devices, String prefix, List<String> removed) {
    JsonNode requests = devices.path("requests");
    for (int i = 0; i < requests.size(); i++) {
      String requestPrefix = prefix + "requests[" + i + "].";
      remove(requests.get(i).path("exactly"), "derivedAttributes", requestPrefix + "exactly.",
          removed);
      JsonNode subs = requests.get(i).path("firstAvailable");
      for (int j = 0; j < subs.size(); j++) {
        remove(subs.get(j), "derivedAttributes",
            requestPrefix + "firstAvailable[" + j + "].", removed);
      }
    }
  }

  private static void remove(JsonNode node, String field, String prefix, List<String> removed) {
    if (node instanceof ObjectNode object && object.has(field)) {
      object.remove(field);
      removed.add(prefix + field);
    }
  }
}
