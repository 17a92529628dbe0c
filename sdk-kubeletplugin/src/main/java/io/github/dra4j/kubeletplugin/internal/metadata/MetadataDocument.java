package io.github.dra4j.kubeletplugin.internal.metadata;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code DeviceMetadata} object as containers read it: one request of one claim and
 * the devices serving it, with keys in a fixed order (the one a Go driver writes, so the files of
 * the two are byte for byte alike). Immutable.
 *
 * @param claimNamespace the claim's namespace
 * @param claimName the claim's name
 * @param claimUid the claim's UID
 * @param generation 1 when first written, then incremented by every update
 * @param podClaimName the pod's claim name for template-generated claims, or null
 * @param requestRef the request reference, {@code req} or {@code req/sub}
 * @param devices the devices serving the request
 */
record MetadataDocument(
    String claimNamespace,
    String claimName,
    String claimUid,
    long generation,
    String podClaimName,
    String requestRef,
    List<PreparedDevice> devices) {

  /**
   * The object in the given API version, as a JSON-ready tree.
   *
   * @param apiVersion for example {@code metadata.resource.k8s.io/v1alpha1}
   * @param driverName the driver of every device
   * @param serialization converts fabric8 attribute and network objects to JSON trees
   * @return ordered maps and lists
   */
  Map<String, Object> toTree(
      String apiVersion, String driverName, KubernetesSerialization serialization) {
    Map<String, Object> tree = new LinkedHashMap<>();
    tree.put("kind", "DeviceMetadata");
    tree.put("apiVersion", apiVersion);
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", claimName);
    metadata.put("namespace", claimNamespace);
    metadata.put("uid", claimUid);
    metadata.put("generation", generation);
    tree.put("metadata", metadata);
    if (podClaimName != null && !podClaimName.isEmpty()) {
      tree.put("podClaimName", podClaimName);
    }
    List<Object> wireDevices = new ArrayList<>();
    for (PreparedDevice device : devices) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("driver", driverName);
      entry.put("pool", device.poolName());
      entry.put("name", device.deviceName());
      if (device.metadata() != null && !device.metadata().attributes().isEmpty()) {
        entry.put("attributes",
            serialization.convertValue(device.metadata().attributes(), Map.class));
      }
      if (device.metadata() != null && device.metadata().networkData() != null) {
        entry.put("networkData",
            serialization.convertValue(device.metadata().networkData(), Map.class));
      }
      wireDevices.add(entry);
    }
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("name", requestRef);
    request.put("devices", wireDevices);
    tree.put("requests", List.of(request));
    return tree;
  }
}
