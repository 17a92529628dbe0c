package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts claims read in an older {@code resource.k8s.io} version to the v1 model, so a driver
 * only ever sees v1 objects. Stateless.
 */
final class ClaimConversion {

  /** Request fields that v1 moved under {@code exactly}. */
  private static final List<String> EXACT_FIELDS = List.of(
      "deviceClassName",
      "selectors",
      "allocationMode",
      "count",
      "adminAccess",
      "tolerations",
      "capacity",
      "derivedAttributes");

  private final KubernetesSerialization serialization;

  ClaimConversion(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  ResourceClaim toV1(HasMetadata claim, ClaimVersion version) {
    if (version == ClaimVersion.V1) {
      return (ResourceClaim) claim;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> tree = serialization.convertValue(claim, Map.class);
    tree.put("apiVersion", "resource.k8s.io/v1");
    if (version == ClaimVersion.V1BETA1) {
      nestExactRequests(tree);
    }
    return serialization.convertValue(tree, ResourceClaim.class);
  }

  @SuppressWarnings("unchecked")
  private static void nestExactRequests(Map<String, Object> tree) {
    if (!(tree.get("spec") instanceof Map<?, ?> spec)
        || !(spec.get("devices") instanceof Map<?, ?> devices)
        || !(devices.get("requests") instanceof List<?> requests)) {
      return;
    }
    for (Object item : requests) {
      if (!(item instanceof Map<?, ?> raw) || raw.get("firstAvailable") != null) {
        continue;
      }
      Map<String, Object> request = (Map<String, Object>) raw;
      Map<String, Object> exactly = new LinkedHashMap<>();
      for (String field : EXACT_FIELDS) {
        Object value = request.remove(field);
        if (value != null) {
          exactly.put(field, value);
        }
      }
      request.put("exactly", exactly);
    }
  }
}
