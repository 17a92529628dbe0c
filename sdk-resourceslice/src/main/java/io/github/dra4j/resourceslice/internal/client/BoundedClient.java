package io.github.dra4j.resourceslice.internal.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.time.Duration;

/**
 * The driver's API client as the controller uses it: every request it makes (a write, a list of
 * the informer, the Node lookup) ends after a bounded time and is not retried by the client, so
 * that an API server that accepts connections and never answers cannot hold the controller's one
 * worker: the request fails, the sync is reported and tried again with the controller's backoff,
 * and the informer lists again with its own. Without a request timeout of the client's own (0, no
 * limit), requests are bounded by {@link #DEFAULT_TIMEOUT}; fabric8's retries are off, since with
 * the JDK HTTP client they repeat a request that timed out up to ten times (over two minutes with
 * the default settings) while the worker waits. Stateless.
 */
public final class BoundedClient {

  /** The bound of a request when the client sets none: fabric8's default request timeout. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private BoundedClient() {}

  /**
   * The client with bounded, unrepeated requests; it shares the client's connections and is not
   * to be closed (closing it would close the driver's client).
   *
   * @param client the driver's client (borrowed)
   * @return a client derived from it
   */
  public static KubernetesClient of(KubernetesClient client) {
    Config config = client.getConfiguration();
    Integer timeout = config.getRequestTimeout();
    RequestConfig bounded = new RequestConfigBuilder(config.getRequestConfig())
        .withRequestTimeout(timeout == null || timeout <= 0
            ? (int) DEFAULT_TIMEOUT.toMillis() : timeout)
        .withRequestRetryBackoffLimit(0)
        .build();
    return client.newClient(bounded).adapt(KubernetesClient.class);
  }

  /**
   * The URL of the slices of a version, for messages.
   *
   * @param client the client
   * @param version the version
   * @return for example {@code https://10.0.0.1:443/apis/resource.k8s.io/v1/resourceslices}
   */
  public static String slicesUrl(KubernetesClient client, SliceVersion version) {
    return url(client, "apis/" + version.apiVersion() + "/resourceslices");
  }

  /**
   * A URL on the client's API server, for messages.
   *
   * @param client the client
   * @param path a path without a leading {@code /}
   * @return the master URL (with any path of its own) and the path
   */
  public static String url(KubernetesClient client, String path) {
    String master = client.getMasterUrl() == null ? "(unknown)/"
        : client.getMasterUrl().toString();
    return (master.endsWith("/") ? master : master + "/") + path;
  }
}
