package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.kubeletplugin.internal.api.ApiDeadline;
import io.github.dra4j.kubeletplugin.internal.api.ApiRequests;

/**
 * One GET of a ResourceClaim, or of the {@code resource.k8s.io} discovery document, through the
 * API client's HTTP client without fabric8's resource DSL, ending by an {@link ApiDeadline}.
 *
 * <p>The DSL ({@code client.resources(type).inNamespace(ns).withName(name).get()}) builds an
 * operation context and joins and re-parses the URL on every call; that was a third of the
 * plugin's own CPU in a claim read. It also cannot be bounded by a kubelet call's deadline. This
 * sends what the DSL sends (a GET of the claim's path on the client's master URL, through the
 * same HTTP client and so its interceptors for authentication, impersonation and rate limiting)
 * with {@link ApiRequests}, which bounds each try by the client's request timeout and the whole
 * read by the deadline, and reads the answer as the DSL does: a 404 as {@code null}, any other
 * failure as fabric8's {@link KubernetesClientException} with the API server's status. The body
 * is parsed on the calling thread instead of the HTTP client's event loop, which several calls
 * share.
 *
 * <p>Immutable and thread-safe; made for one client ({@link #of}).
 */
final class ClaimGet {

  private static final String GROUP_PATH = "/apis/" + ApiServerClaimSource.GROUP;

  private final ApiRequests requests;

  private ClaimGet(ApiRequests requests) {
    this.requests = requests;
  }

  /**
   * Prepares GETs through a client: its master URL, request timeout and retry settings are read
   * once.
   *
   * @param client the API client (borrowed)
   * @return the GETs for that client
   * @throws IllegalStateException if the client has no master URL
   */
  static ClaimGet of(KubernetesClient client) {
    return new ClaimGet(ApiRequests.of(client));
  }

  /**
   * Whether these GETs were made for a client.
   *
   * @param other a client
   * @return true if it is the one these GETs use
   */
  boolean isFor(KubernetesClient other) {
    return requests.isFor(other);
  }

  /**
   * The URL of a claim in a version.
   *
   * @param version for example {@code v1}
   * @param namespace the claim's namespace, a DNS label (checked by the caller)
   * @param name the claim's name, a DNS subdomain (checked by the caller)
   * @return the claim's URL
   */
  String url(String version, String namespace, String name) {
    return requests.url(GROUP_PATH + "/" + version + "/namespaces/" + namespace
        + "/resourceclaims/" + name);
  }

  /**
   * Reads one claim.
   *
   * @param version the API version, for example {@code v1}
   * @param type the model class of that version
   * @param namespace the claim's namespace, a DNS label (checked by the caller, so safe in a path)
   * @param name the claim's name, a DNS subdomain (likewise)
   * @param deadline when to give up
   * @param <T> the model type
   * @return the claim, or null if the API server answered 404 (the claim or the whole version
   *     is missing)
   * @throws KubernetesClientException if the API server answered with another error, or could not
   *     be reached before the deadline, or the call was cancelled, or the calling thread was
   *     interrupted (its flag is then set again)
   */
  <T extends HasMetadata> T get(String version, Class<T> type, String namespace, String name,
      ApiDeadline deadline) {
    return requests.get(url(version, namespace, name), type, deadline);
  }

  /**
   * Reads the discovery document of {@code resource.k8s.io}: the versions the API server serves.
   *
   * @param deadline when to give up
   * @return the group, or null if the API server does not serve it at all
   * @throws KubernetesClientException as {@link #get}
   */
  APIGroup group(ApiDeadline deadline) {
    return requests.get(requests.url(GROUP_PATH), APIGroup.class, deadline);
  }
}
