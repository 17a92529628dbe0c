package io.github.dra4j.resourceslice.internal.sync;

import io.fabric8.kubernetes.api.model.resource.v1.ResourcePool;
import io.fabric8.kubernetes.api.model.resource.v1.ResourcePoolBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceslice.internal.compare.SemanticEquality;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What one pool sync must do, computed without side effects from the pool's current slices and its
 * desired state:
 *
 * <ul>
 *   <li>current slices below the highest generation, without a valid index prefix, out of range
 *       or claiming an index already taken (in name order) are obsolete;
 *   <li>a matched slice is changed if its pool header, node selector, all-nodes flag, devices
 *       (taint-tolerant), counter sets or per-device node selection differ;
 *   <li>the new generation is the driver's floor if higher than the current one; the current one
 *       if nothing is created and at most one slice changes; otherwise current + 1. A bumped
 *       generation rewrites every matched slice.
 * </ul>
 *
 * <p>One deliberate addition to the Go rules: recreating a single missing slice of an otherwise
 * unchanged pool (no obsolete slices, no changed slices, current generation above 0) keeps the
 * generation, so a slice deleted by someone else costs one create instead of rewriting the pool.
 * The pool is complete again at the same generation with the same content, so consumers see no
 * inconsistency.
 *
 * @param obsolete slices to delete
 * @param matched per desired index the current slice that holds it, or null if it must be created
 * @param changed per desired index whether the matched slice's content differs
 * @param generation the generation to publish
 * @param bumped whether the generation grew (then every matched slice is updated)
 * @param padWidth the width of the index prefix for new names
 */
public record PoolPlan(
    List<ResourceSlice> obsolete,
    List<ResourceSlice> matched,
    List<Boolean> changed,
    long generation,
    boolean bumped,
    int padWidth) {

  /**
   * Copies the lists ({@code matched} may contain nulls).
   *
   * @param obsolete current slices to delete; no null elements
   * @param matched one entry per desired slice index: the current slice that holds that index, or
   *     null if the slice must be created
   * @param changed one entry per desired slice index: whether the matched slice's content differs
   *     from the desired one (false when nothing is matched); no null elements
   * @param generation the pool generation every slice is published with
   * @param bumped true if {@code generation} is higher than the current one, so every matched slice
   *     is rewritten
   * @param padWidth the number of hexadecimal digits of the index prefix in new slice names
   * @throws NullPointerException if a list is null, or {@code obsolete} or {@code changed} holds
   *     a null element
   */
  public PoolPlan {
    obsolete = List.copyOf(obsolete);
    matched = Collections.unmodifiableList(new ArrayList<>(matched));
    changed = List.copyOf(changed);
  }

  /**
   * Plans a sync.
   *
   * @param pool the desired pool
   * @param current the pool's current slices, sorted by name
   * @param equality the comparator
   * @return the plan
   */
  public static PoolPlan compute(
      DesiredPool pool, List<ResourceSlice> current, SemanticEquality equality) {
    int count = pool.slices().size();
    int padWidth = SliceNames.padWidth(count);
    long maxGeneration = current.stream().mapToLong(PoolPlan::generationOf).max().orElse(0);
    List<ResourceSlice> obsolete = new ArrayList<>();
    ResourceSlice[] matched = new ResourceSlice[count];
    for (ResourceSlice slice : current) {
      OptionalLong index = SliceNames.parseIndex(slice.getMetadata().getName(), padWidth);
      if (generationOf(slice) < maxGeneration || index.isEmpty() || index.getAsLong() < 0
          || index.getAsLong() >= count || matched[(int) index.getAsLong()] != null) {
        obsolete.add(slice);
      } else {
        matched[(int) index.getAsLong()] = slice;
      }
    }
    ResourcePool header = header(pool.name(), maxGeneration, count);
    Boolean[] changed = new Boolean[count];
    int changedCount = 0;
    int missing = 0;
    for (int i = 0; i < count; i++) {
      changed[i] = matched[i] != null && differs(matched[i], pool, pool.slices().get(i), header,
          equality);
      changedCount += changed[i] ? 1 : 0;
      missing += matched[i] == null ? 1 : 0;
    }
    long generation;
    boolean bumped;
    if (pool.generation() > maxGeneration) {
      generation = pool.generation();
      bumped = true;
    } else if ((missing == 0 && changedCount <= 1)
        || (missing == 1 && changedCount == 0 && obsolete.isEmpty() && maxGeneration > 0)) {
      generation = maxGeneration;
      bumped = false;
    } else {
      generation = maxGeneration + 1;
      bumped = true;
    }
    return new PoolPlan(obsolete, Arrays.asList(matched), Arrays.asList(changed), generation,
        bumped, padWidth);
  }

  /**
   * Builds a pool header.
   *
   * @param name the pool name
   * @param generation the generation
   * @param sliceCount the number of slices
   * @return the {@code spec.pool} value
   */
  public static ResourcePool header(String name, long generation, int sliceCount) {
    return new ResourcePoolBuilder().withName(name).withGeneration(generation)
        .withResourceSliceCount((long) sliceCount).build();
  }

  private static boolean differs(ResourceSlice current, DesiredPool pool, DesiredSlice desired,
      ResourcePool header, SemanticEquality equality) {
    var spec = current.getSpec();
    ResourcePool pool0 = spec.getPool();
    boolean headerDiffers = pool0 == null || !Objects.equals(pool0.getName(), header.getName())
        || !Objects.equals(pool0.getGeneration(), header.getGeneration())
        || !Objects.equals(pool0.getResourceSliceCount(), header.getResourceSliceCount());
    return headerDiffers
        || !equality.equal(spec.getNodeSelector(), pool.nodeSelector())
        || Boolean.TRUE.equals(spec.getAllNodes()) != pool.allNodes()
        || !equality.devices(spec.getDevices(), desired.devices(),
            desired.deviceContent(equality), true)
        || !equality.equal(spec.getSharedCounters(), desired.sharedCounters())
        || !Objects.equals(spec.getPerDeviceNodeSelection(), desired.perDeviceNodeSelection());
  }

  /**
   * Returns the pool a slice belongs to.
   *
   * @param slice the slice
   * @return {@code spec.pool.name}, empty if missing
   */
  public static String poolNameOf(ResourceSlice slice) {
    if (slice.getSpec() == null || slice.getSpec().getPool() == null
        || slice.getSpec().getPool().getName() == null) {
      return "";
    }
    return slice.getSpec().getPool().getName();
  }

  /**
   * Returns the generation a slice was published with.
   *
   * @param slice the slice
   * @return {@code spec.pool.generation}, 0 if missing
   */
  public static long generationOf(ResourceSlice slice) {
    if (slice.getSpec() == null || slice.getSpec().getPool() == null
        || slice.getSpec().getPool().getGeneration() == null) {
      return 0;
    }
    return slice.getSpec().getPool().getGeneration();
  }

  /**
   * Counts the slices to create.
   *
   * @return desired indices without a current slice
   */
  public long missingCount() {
    return matched.stream().filter(Objects::isNull).count();
  }
}
