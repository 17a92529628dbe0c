package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.kubeletplugin.spi.ClaimLookup;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.net.HttpURLConnection;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@link ClaimLookup} a plugin hands its driver: an {@link ApiServerClaimSource} of its own
 * over the plugin's client, a missing claim answered as empty. Thread-safe; owned by the plugin's
 * context, nothing to close.
 */
public final class ApiServerClaimLookup implements ClaimLookup {

  private final ApiServerClaimSource source;

  /**
   * Creates the lookup.
   *
   * @param clients gives the plugin's API client (borrowed), asked for at each read
   */
  public ApiServerClaimLookup(Supplier<KubernetesClient> clients) {
    this.source = new ApiServerClaimSource(clients);
  }

  @Override
  public Optional<ResourceClaim> find(ClaimReference claim) {
    try {
      return Optional.of(source.get(claim.namespace(), claim.name(), claim.uid()));
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
