package io.github.dra4j.resourceslice.internal.client;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes ResourceSlices through whichever {@code resource.k8s.io} version the server serves, like
 * the Go version-negotiating client: a call starts at the remembered version; only 404
 * Not Found moves to the next one ({@link SliceVersion#next()}); after all three the last error is
 * returned, and the version reached is remembered for the next call. The caller sees only the
 * {@code v1} model. Thread-safe: the remembered version is an atomic reference shared by all
 * callers (and with {@link SliceInformer}).
 */
public final class SliceClient {

  private static final Logger LOG = LoggerFactory.getLogger(SliceClient.class);

  private final KubernetesClient client;
  private final SliceConversion conversion;
  private final AtomicReference<SliceVersion> version = new AtomicReference<>(SliceVersion.V1);

  /**
   * Creates a client.
   *
   * @param client the fabric8 client
   */
  public SliceClient(KubernetesClient client) {
    this.client = client;
    this.conversion = new SliceConversion(client.getKubernetesSerialization());
  }

  /**
   * Returns the version the next call starts with.
   *
   * @return the remembered version
   */
  public SliceVersion version() {
    return version.get();
  }

  /**
   * Remembers a version (used by the informer once it found a served one).
   *
   * @param served the version that answered
   */
  public void useVersion(SliceVersion served) {
    SliceVersion previous = version.getAndSet(served);
    if (previous != served) {
      LOG.info("Using ResourceSlice API {}", served.apiVersion());
    }
  }

  /**
   * Returns the converter between versions.
   *
   * @return the converter
   */
  public SliceConversion conversion() {
    return conversion;
  }

  /**
   * Creates a slice.
   *
   * @param slice the slice (v1 model)
   * @return what the server stored, as v1
   * @throws KubernetesClientException if the server refuses
   */
  public ResourceSlice create(ResourceSlice slice) {
    return negotiate(v -> conversion.toV1(
        client.resources(v.resourceType()).resource(conversion.fromV1(slice, v)).create()));
  }

  /**
   * Replaces a slice (PUT with optimistic concurrency on its resource version).
   *
   * @param slice the slice with the resource version it was read at
   * @return what the server stored, as v1
   * @throws KubernetesClientException if the server refuses (409 on a stale version)
   */
  public ResourceSlice update(ResourceSlice slice) {
    return negotiate(v -> conversion.toV1(
        client.resources(v.resourceType()).resource(conversion.fromV1(slice, v)).update()));
  }

  /**
   * Deletes a slice if it still is at the resource version given (precondition); a slice that is
   * already gone is not an error.
   *
   * @param slice the slice as last seen
   * @return true if the server deleted it, false if it did not exist
   * @throws KubernetesClientException if the server refuses (409 when the slice changed)
   */
  public boolean delete(ResourceSlice slice) {
    try {
      return negotiate(v -> {
        var deleted = client.resources(v.resourceType()).resource(conversion.fromV1(slice, v))
            .lockResourceVersion().delete();
        if (deleted.isEmpty()) {
          throw new KubernetesClientException("resourceslices \"" + slice.getMetadata().getName()
              + "\" not found", HttpURLConnection.HTTP_NOT_FOUND, null);
        }
        return true;
      });
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  /**
   * Runs a call against the remembered version, moving on after 404 Not Found.
   *
   * @param call the call for one version
   * @param <R> the result type
   * @return the call's result
   * @throws KubernetesClientException the last error if every version answered 404, or the
   *     first non-404 error
   */
  private <R> R negotiate(Function<SliceVersion, R> call) {
    SliceVersion current = version.get();
    KubernetesClientException last = null;
    for (int attempt = 0; attempt < SliceVersion.values().length; attempt++) {
      try {
        return call.apply(current);
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
          throw e;
        }
        last = e;
        current = current.next();
        useVersion(current);
      }
    }
    throw last;
  }
}
