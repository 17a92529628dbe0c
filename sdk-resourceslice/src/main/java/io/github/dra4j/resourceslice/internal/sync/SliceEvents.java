package io.github.dra4j.resourceslice.internal.sync;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceslice.internal.client.SliceInformer;
import io.github.dra4j.resourceslice.internal.queue.PoolQueue;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns informer events into delayed pool syncs (and deletions into cache updates): add, update and
 * delete schedule the slice's pool after the sync delay (an update that moved a slice to another
 * pool schedules both). A slice deleted by someone else, such as the kubelet wiping the node's
 * slices on restart, schedules its pool after the shorter recreate delay instead, so it comes back
 * without waiting for the sync delay. With reconcile-pool-with-name, slices of other pools are
 * ignored. Called on the informer thread; the cache and queue are thread-safe.
 */
public final class SliceEvents implements SliceInformer.Listener {

  private static final Logger LOG = LoggerFactory.getLogger(SliceEvents.class);

  private final SliceCache cache;
  private final PoolQueue queue;
  private final Duration syncDelay;
  private final Duration recreateDelay;
  private final String onlyPool;

  /**
   * Creates the listener.
   *
   * @param cache the slice view to update
   * @param queue the work queue
   * @param syncDelay delay after ordinary events
   * @param recreateDelay delay after a deletion by someone else (capped at the sync delay)
   * @param onlyPool the reconcile-pool-with-name pool, or null for all pools
   */
  public SliceEvents(SliceCache cache, PoolQueue queue, Duration syncDelay, Duration recreateDelay,
      String onlyPool) {
    this.cache = cache;
    this.queue = queue;
    this.syncDelay = syncDelay;
    this.recreateDelay = recreateDelay.compareTo(syncDelay) < 0 ? recreateDelay : syncDelay;
    this.onlyPool = onlyPool;
  }

  private boolean ignored(ResourceSlice slice) {
    return onlyPool != null && !onlyPool.equals(PoolPlan.poolNameOf(slice));
  }

  @Override
  public void added(ResourceSlice slice) {
    if (ignored(slice)) {
      return;
    }
    LOG.trace("ResourceSlice add {}", slice.getMetadata().getName());
    schedule(PoolPlan.poolNameOf(slice), syncDelay);
  }

  @Override
  public void updated(ResourceSlice before, ResourceSlice after) {
    if (ignored(before) && ignored(after)) {
      return;
    }
    LOG.trace("ResourceSlice update {}", after.getMetadata().getName());
    if (!ignored(before)) {
      schedule(PoolPlan.poolNameOf(before), syncDelay);
    }
    if (!ignored(after) && !PoolPlan.poolNameOf(before).equals(PoolPlan.poolNameOf(after))) {
      schedule(PoolPlan.poolNameOf(after), syncDelay);
    }
  }

  @Override
  public void deleted(ResourceSlice slice) {
    if (ignored(slice)) {
      return;
    }
    boolean byController = cache.informerDelete(slice);
    LOG.trace("ResourceSlice delete {} (by controller: {})", slice.getMetadata().getName(),
        byController);
    schedule(PoolPlan.poolNameOf(slice), byController ? syncDelay : recreateDelay);
  }

  private void schedule(String pool, Duration delay) {
    if (!pool.isEmpty()) {
      queue.addAfter(pool, delay);
    }
  }
}
