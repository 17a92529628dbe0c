package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;

/** Formats a claim the way Kubernetes messages do: {@code namespace/name} or {@code name}. */
final class ClaimNames {

  private ClaimNames() {}

  static String of(ResourceClaim claim) {
    if (claim.getMetadata() == null) {
      return "";
    }
    String namespace = claim.getMetadata().getNamespace();
    String name = String.valueOf(claim.getMetadata().getName());
    return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
  }
}
