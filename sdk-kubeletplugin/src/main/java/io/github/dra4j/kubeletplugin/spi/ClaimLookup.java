package io.github.dra4j.kubeletplugin.spi;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.util.Optional;

/**
 * Reads one ResourceClaim from the API server the way the plugin reads the claims the kubelet
 * names: one GET, the {@code resource.k8s.io} version negotiated (v1, then v1beta2, then v1beta1,
 * converted to the v1 model), and, on a thread that serves a kubelet call, ended by that call's
 * deadline. A driver gets the plugin's from {@link
 * io.github.dra4j.kubeletplugin.PluginContext#claimLookup()}; thread-safe.
 */
@FunctionalInterface
public interface ClaimLookup {

  /**
   * Reads the claim of a namespace and name.
   *
   * @param claim the claim's namespace and name; its UID is not compared: the claim found may be
   *     another object of the same name (deleted and created again), which the caller tells by
   *     its UID
   * @return the claim, or empty if none of that namespace and name exists
   * @throws io.fabric8.kubernetes.client.KubernetesClientException if it cannot be read (the API
   *     server unreachable, too slow for the call's deadline, or refusing the request)
   */
  Optional<ResourceClaim> find(ClaimReference claim);
}
