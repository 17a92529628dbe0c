package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads claims with one GET each, negotiating the API version like the Go helper (rule D9).
 *
 * <p>It tries the version that last worked first (v1 at the start), and only a 404 moves it to
 * the next one, wrapping around: v1, v1beta2, v1beta1. An API server without v1 thus costs one
 * extra GET once, not per claim. A claim that truly does not exist costs three GETs and ends in a
 * 404, leaving the remembered version where it was. Thread-safe; owned by one plugin.
 */
public final class ApiServerClaimSource implements ClaimSource {

  private static final ClaimVersion[] ORDER = ClaimVersion.values();

  private final KubernetesClient client;
  private final ClaimConversion conversion;
  private final AtomicInteger current = new AtomicInteger();

  /**
   * Creates the source.
   *
   * @param client the API client (borrowed; not closed here)
   */
  public ApiServerClaimSource(KubernetesClient client) {
    this.client = client;
    this.conversion = new ClaimConversion(client.getKubernetesSerialization());
  }

  /**
   * The API version the next read starts with.
   *
   * @return {@code v1}, {@code v1beta2} or {@code v1beta1}
   */
  public String currentVersion() {
    return ORDER[current.get()].version();
  }

  @Override
  public ResourceClaim get(String namespace, String name, String expectedUid) {
    int start = current.get();
    for (int attempt = 0; attempt < ORDER.length; attempt++) {
      int index = (start + attempt) % ORDER.length;
      ClaimVersion version = ORDER[index];
      // fabric8 answers a 404, whether for the object or the whole version, with null.
      HasMetadata found = client.resources(version.type()).inNamespace(namespace).withName(name).get();
      if (found != null) {
        current.set(index);
        return conversion.toV1(found, version);
      }
    }
    throw new KubernetesClientException(
        "resourceclaims.resource.k8s.io \"" + name + "\" not found",
        HttpURLConnection.HTTP_NOT_FOUND,
        null);
  }
}
