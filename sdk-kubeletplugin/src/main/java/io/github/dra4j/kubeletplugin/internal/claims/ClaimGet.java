package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import java.io.ByteArrayInputStream;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One GET of a ResourceClaim through the API client's HTTP client, without fabric8's resource
 * DSL.
 *
 * <p>The DSL ({@code client.resources(type).inNamespace(ns).withName(name).get()}) builds an
 * operation context and joins and re-parses the URL on every call; that was a third of the
 * plugin's own CPU in a claim read. This sends what the DSL sends (a GET of the claim's path on
 * the client's master URL, with the client's request timeout, through the same HTTP client and
 * so its interceptors for authentication, impersonation and rate limiting, and its retries) and
 * reads the answer as the DSL does: the body parsed to the requested type with the client's
 * serialization, a 404 as {@code null}, any other failure as fabric8's {@link
 * KubernetesClientException} with the API server's status. The body is parsed on the calling
 * thread instead of the HTTP client's event loop, which several calls share.
 *
 * <p>Immutable and thread-safe; made for one client ({@link #of}).
 */
final class ClaimGet {

  private static final Logger LOG = LoggerFactory.getLogger(ClaimGet.class);
  private static final String GROUP_PATH = "/apis/" + ApiServerClaimSource.GROUP + "/";

  private final KubernetesClient client;
  private final String root;
  private final long timeoutMillis;

  private ClaimGet(KubernetesClient client, String root, long timeoutMillis) {
    this.client = client;
    this.root = root;
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Prepares GETs through a client: its master URL and request timeout are read once.
   *
   * @param client the API client (borrowed)
   * @return the GETs for that client
   * @throws IllegalStateException if the client has no master URL
   */
  static ClaimGet of(KubernetesClient client) {
    if (client.getMasterUrl() == null) {
      throw new IllegalStateException("the API client has no master URL");
    }
    String master = client.getMasterUrl().toString();
    while (master.endsWith("/")) {
      master = master.substring(0, master.length() - 1);
    }
    Integer timeout = client.getConfiguration().getRequestTimeout();
    return new ClaimGet(client, master + GROUP_PATH, timeout == null ? 0 : timeout);
  }

  /**
   * Whether these GETs were made for a client.
   *
   * @param other a client
   * @return true if it is the one these GETs use
   */
  boolean isFor(KubernetesClient other) {
    return client == other;
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
    return root + version + "/namespaces/" + namespace + "/resourceclaims/" + name;
  }

  /**
   * Reads one claim.
   *
   * @param version the API version, for example {@code v1}
   * @param type the model class of that version
   * @param namespace the claim's namespace, a DNS label (checked by the caller, so safe in a path)
   * @param name the claim's name, a DNS subdomain (likewise)
   * @param <T> the model type
   * @return the claim, or null if the API server answered 404 (the claim or the whole version
   *     is missing)
   * @throws KubernetesClientException if the API server answered with another error, or could not
   *     be reached, or the calling thread was interrupted (its flag is then set again)
   */
  <T extends HasMetadata> T get(String version, Class<T> type, String namespace, String name) {
    HttpClient http = client.getHttpClient();
    HttpRequest.Builder builder = http.newHttpRequestBuilder()
        .uri(url(version, namespace, name));
    if (timeoutMillis > 0) {
      builder.timeout(timeoutMillis, TimeUnit.MILLISECONDS); // as the DSL does
    }
    HttpRequest request = builder.build();
    HttpResponse<byte[]> response = await(request, http.sendAsync(request, byte[].class));
    List<String> warnings = response.headers("Warning");
    if (warnings != null && !warnings.isEmpty()) {
      LOG.warn("The API server warned about GET {}: {}", request.uri(),
          LogText.text(String.valueOf(warnings)));
    }
    int code = response.code();
    if (code == HttpURLConnection.HTTP_NOT_FOUND) {
      return null;
    }
    KubernetesSerialization serialization = client.getKubernetesSerialization();
    if (!response.isSuccessful()) {
      throw OperationSupport.requestFailure(request,
          OperationSupport.createStatus(response, serialization));
    }
    byte[] body = response.body();
    if (body == null || body.length == 0) {
      throw new KubernetesClientException("GET " + request.uri() + ": HTTP " + code
          + " with an empty body", code, null);
    }
    return serialization.unmarshal(new ByteArrayInputStream(body), type);
  }

  /** Waits for the answer on the calling thread, as the DSL does; fabric8's errors as they are. */
  private static HttpResponse<byte[]> await(HttpRequest request,
      CompletableFuture<HttpResponse<byte[]>> answer) {
    try {
      return answer.get();
    } catch (InterruptedException e) {
      answer.cancel(true);
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("GET " + request.uri() + ": interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof KubernetesClientException known) {
        throw known.copyAsCause();
      }
      throw new KubernetesClientException("GET " + request.uri() + " failed: " + cause, cause);
    }
  }
}
