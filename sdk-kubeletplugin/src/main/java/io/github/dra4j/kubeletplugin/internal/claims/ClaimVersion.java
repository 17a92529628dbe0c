package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The {@code resource.k8s.io} versions a claim can be read in, in the order they are tried.
 *
 * <p>v1beta2 has the v1 shape. v1beta1 keeps a request's device selection fields directly in the
 * request, where v1 nests them under {@code exactly}; {@link ClaimConversion} moves them.
 */
enum ClaimVersion {
  V1("v1", io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim.class), V1BETA2("v1beta2",
      io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceClaim.class), V1BETA1("v1beta1",
          io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceClaim.class);

  private final String version;
  private final Class<? extends HasMetadata> type;

  ClaimVersion(String version, Class<? extends HasMetadata> type) {
    this.version = version;
    this.type = type;
  }

  String version() {
    return version;
  }

  Class<? extends HasMetadata> type() {
    return type;
  }
}
