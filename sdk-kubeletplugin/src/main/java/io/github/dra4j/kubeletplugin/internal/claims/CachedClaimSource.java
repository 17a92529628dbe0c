package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves claims from a fabric8 informer on {@code resource.k8s.io/v1} ResourceClaims, and falls
 * back to a GET when the cached copy is missing, not allocated yet, or has another UID (the
 * informer may lag behind the scheduler's write of the allocation), and while the informer has
 * not completed its first list.
 *
 * <p>Opt-in: the informer watches claims in all namespaces, which needs list/watch RBAC on
 * ResourceClaims and memory for every claim in the cluster. Thread-safe; owned by one plugin,
 * which closes it.
 */
public final class CachedClaimSource implements ClaimSource {

  private static final Logger LOG = LoggerFactory.getLogger(CachedClaimSource.class);

  private final SharedIndexInformer<ResourceClaim> informer;
  private final CompletableFuture<Void> firstList;
  private final String listUrl;
  private final ClaimSource fallback;
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  /**
   * Starts the informer; does not wait for it (see {@link #awaitFirstList}).
   *
   * @param client the API client (borrowed)
   * @param fallback where to read claims the cache cannot answer for
   */
  public CachedClaimSource(KubernetesClient client, ClaimSource fallback) {
    this.fallback = fallback;
    String master = client.getMasterUrl() == null ? "(unknown)/"
        : client.getMasterUrl().toString();
    this.listUrl = (master.endsWith("/") ? master : master + "/")
        + "apis/resource.k8s.io/v1/resourceclaims";
    this.informer = client.dynamicResourceAllocation().v1().resourceClaims().inAnyNamespace()
        .runnableInformer(0);
    this.firstList = informer.start().toCompletableFuture();
  }

  /**
   * Waits until the informer has listed all claims once.
   *
   * @param timeout how long to wait
   * @throws IllegalStateException {@code claim cache: list ResourceClaims at <url>: <cause>} if
   *     the list failed (the cause is the client's error, for example a refused connection or a
   *     403), or {@code claim cache: the first list of ResourceClaims at <url> did not complete
   *     within <timeout>}
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitFirstList(Duration timeout) throws InterruptedException {
    try {
      firstList.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException("claim cache: list ResourceClaims at " + listUrl + ": "
          + rootMessage(cause), cause);
    } catch (TimeoutException e) {
      throw new IllegalStateException("claim cache: the first list of ResourceClaims at "
          + listUrl + " did not complete within " + timeout, e);
    }
  }

  private static String rootMessage(Throwable error) {
    String message = error.getMessage();
    for (Throwable t = error.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      if (t.getMessage() != null && (message == null || !message.contains(t.getMessage()))) {
        message = (message == null ? "" : message + ": ") + t.getMessage();
      }
    }
    return message == null ? error.toString() : message;
  }

  @Override
  public ResourceClaim get(String namespace, String name, String expectedUid) {
    ResourceClaim cached = informer.hasSynced()
        ? informer.getStore().getByKey(namespace + "/" + name) : null;
    if (cached != null
        && cached.getStatus() != null
        && cached.getStatus().getAllocation() != null
        && expectedUid.equals(cached.getMetadata().getUid())) {
      hits.incrementAndGet();
      return cached;
    }
    misses.incrementAndGet();
    LOG.debug("Claim {}/{} not usable from cache; reading it from the API server", namespace, name);
    return fallback.get(namespace, name, expectedUid);
  }

  /**
   * Reads answered from the cache.
   *
   * @return the count since start
   */
  public long hits() {
    return hits.get();
  }

  /**
   * Reads that fell back to the API server.
   *
   * @return the count since start
   */
  public long misses() {
    return misses.get();
  }

  @Override
  public void close() {
    informer.close();
  }
}
