package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** Where the plugin reads ResourceClaims from: the API server, or a cache in front of it. */
public interface ClaimSource extends AutoCloseable {

  /**
   * Reads one claim.
   *
   * @param namespace the claim's namespace
   * @param name the claim's name
   * @param expectedUid the UID the kubelet asked for; a cache uses it to decide whether its copy
   *     is still the right object
   * @return the claim in the {@code resource.k8s.io/v1} model
   * @throws KubernetesClientException if it cannot be read; code 404 if it does not exist
   */
  ResourceClaim get(String namespace, String name, String expectedUid);

  /** Stops background work such as an informer. */
  @Override
  default void close() {}
}
