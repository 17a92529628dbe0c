package io.github.dra4j.resourceslice.internal.sync;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The controller's view of its published slices: the informer's store (always its latest state,
 * so a sync never works on a stale or half-delivered list), overlaid for a time with
 * what the controller itself wrote, so a sync that runs before the informer caught up neither
 * creates a slice twice nor deletes one twice.
 *
 * <ul>
 *   <li>a written slice (create/update answer) is used instead of the informer's copy of the same
 *       name while its integer resource version is higher, until the TTL ends or the informer
 *       reports a deletion of that name;
 *   <li>a slice the controller deleted stays hidden while the informer still shows the same UID,
 *       until the TTL ends or the informer reports the deletion;
 *   <li>a deletion reported by the informer clears both, so a slice deleted by someone else is
 *       recreated by the next sync instead of hiding behind a stale cache entry.
 * </ul>
 *
 * <p>Thread-safe: the overlay is guarded by the cache's monitor (the informer thread reports
 * deletions, the worker reads and writes).
 */
public final class SliceCache {

  private record Written(ResourceSlice slice, long expiresAt) {}

  private record Deleted(String uid, long expiresAt) {}

  private final Map<String, Written> written = new HashMap<>();
  private final Map<String, Deleted> deleted = new HashMap<>();
  private final long ttlNanos;
  private final LongSupplier nanoClock;
  private volatile Function<String, List<ResourceSlice>> informerView = pool -> List.of();

  /**
   * Creates a cache.
   *
   * @param ttl how long the controller's own writes override the informer
   * @param nanoClock monotonic time
   */
  public SliceCache(Duration ttl, LongSupplier nanoClock) {
    this.ttlNanos = ttl.toNanos();
    this.nanoClock = nanoClock;
  }

  /**
   * Connects the informer's store.
   *
   * @param view returns the informer's current slices of a pool (objects the cache never changes)
   */
  public void attach(Function<String, List<ResourceSlice>> view) {
    this.informerView = Objects.requireNonNull(view, "view");
  }

  /**
   * Records a slice the informer reported deleted.
   *
   * @param slice the last known state
   * @return true if the controller had deleted it itself
   */
  public synchronized boolean informerDelete(ResourceSlice slice) {
    String name = slice.getMetadata().getName();
    written.remove(name);
    Deleted gone = deleted.remove(name);
    return gone != null && gone.uid().equals(slice.getMetadata().getUid());
  }

  /**
   * Records a slice the controller created or updated (the server's answer).
   *
   * @param slice the stored slice
   */
  public synchronized void written(ResourceSlice slice) {
    written.put(slice.getMetadata().getName(),
        new Written(slice, nanoClock.getAsLong() + ttlNanos));
  }

  /**
   * Records a slice the controller is deleting.
   *
   * @param slice the slice
   */
  public synchronized void deletedByController(ResourceSlice slice) {
    String name = slice.getMetadata().getName();
    written.remove(name);
    deleted.put(name, new Deleted(Objects.toString(slice.getMetadata().getUid(), ""),
        nanoClock.getAsLong() + ttlNanos));
  }

  /**
   * Forgets a deletion the server refused, so the slice is visible again.
   *
   * @param slice the slice whose deletion failed
   */
  public synchronized void deletionFailed(ResourceSlice slice) {
    deleted.remove(slice.getMetadata().getName());
  }

  /**
   * Lists the current slices of a pool, sorted by name.
   *
   * @param poolName the pool
   * @return the slices; shared objects that callers must not modify
   */
  public List<ResourceSlice> pool(String poolName) {
    List<ResourceSlice> fromInformer = informerView.apply(poolName);
    synchronized (this) {
      long now = nanoClock.getAsLong();
      written.values().removeIf(w -> w.expiresAt() - now <= 0);
      deleted.values().removeIf(d -> d.expiresAt() - now <= 0);
      Map<String, ResourceSlice> byName = new LinkedHashMap<>();
      fromInformer.forEach(s -> byName.put(s.getMetadata().getName(), s));
      for (Written mine : written.values()) {
        ResourceSlice slice = mine.slice();
        if (!poolName.equals(PoolPlan.poolNameOf(slice))) {
          continue;
        }
        ResourceSlice informed = byName.get(slice.getMetadata().getName());
        if (informed == null || newer(slice, informed)) {
          byName.put(slice.getMetadata().getName(), slice);
        }
      }
      List<ResourceSlice> result = new ArrayList<>();
      for (ResourceSlice slice : byName.values()) {
        Deleted gone = deleted.get(slice.getMetadata().getName());
        if (gone == null || !gone.uid().equals(slice.getMetadata().getUid())) {
          result.add(slice);
        }
      }
      result.sort(Comparator.comparing(s -> s.getMetadata().getName()));
      return result;
    }
  }

  /** True if {@code a} has a higher integer resource version than {@code b}. */
  private static boolean newer(ResourceSlice a, ResourceSlice b) {
    try {
      return Long.parseLong(a.getMetadata().getResourceVersion()) > Long
          .parseLong(b.getMetadata().getResourceVersion());
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
