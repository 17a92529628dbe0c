package io.github.dra4j.kubeletplugin.internal.claims;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves claims from a fabric8 informer on {@code resource.k8s.io/v1} ResourceClaims, and falls
 * back to a GET when the cached copy is missing, not allocated yet, or has another UID (the
 * informer may lag behind the scheduler's write of the allocation).
 *
 * <p>Opt-in: the informer watches claims in all namespaces, which needs list/watch RBAC on
 * ResourceClaims and memory for every claim in the cluster. Thread-safe; owned by one plugin,
 * which closes it.
 */
public final class CachedClaimSource implements ClaimSource {

  private static final Logger LOG = LoggerFactory.getLogger(CachedClaimSource.class);

  private final SharedIndexInformer<ResourceClaim> informer;
  private final ClaimSource fallback;
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  /**
   * Starts the informer and waits for its first full list.
   *
   * @param client the API client (borrowed)
   * @param fallback where to read claims the cache cannot answer for
   * @param syncTimeout how long to wait for the first list
   * @throws IllegalStateException if the informer does not sync in time
   */
  public CachedClaimSource(KubernetesClient client, ClaimSource fallback, Duration syncTimeout) {
    this.fallback = fallback;
    this.informer =
        client.dynamicResourceAllocation().v1().resourceClaims().inAnyNamespace()
            .runnableInformer(0);
    try {
      informer.start().toCompletableFuture().get(syncTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      informer.close();
      throw new IllegalStateException("claim cache: interrupted while syncing", e);
    } catch (ExecutionException | TimeoutException e) {
      informer.close();
      throw new IllegalStateException("claim cache: informer did not sync within " + syncTimeout, e);
    }
  }

  @Override
  public ResourceClaim get(String namespace, String name, String expectedUid) {
    ResourceClaim cached = informer.getStore().getByKey(namespace + "/" + name);
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
