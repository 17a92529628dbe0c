package io.github.dra4j.resourceslice.internal.sync;

import io.fabric8.kubernetes.api.model.NodeSelector;
import java.util.List;

/**
 * The controller's stored desired state of one pool: the driver's pool, deep-copied, with its
 * validation result. Only the slices' content changes after creation (see {@link DesiredSlice}).
 *
 * @param name the pool name
 * @param nodeSelector the node selector, or null
 * @param allNodes whether all nodes reach the pool
 * @param generation the generation floor
 * @param slices the slices in index order
 * @param violations validation problems; non-empty means the pool is not published
 */
public record DesiredPool(
    String name,
    NodeSelector nodeSelector,
    boolean allNodes,
    long generation,
    List<DesiredSlice> slices,
    List<String> violations) {

  /**
   * Copies the lists.
   *
   * @param name the pool name, the key in {@link DesiredState#pools()}
   * @param nodeSelector the pool's node selector, or null; {@link DesiredState#copyOf} puts a
   *     deep copy here, so the driver's object is not shared
   * @param allNodes whether every node reaches the pool
   * @param generation the driver's generation floor, 0 for none
   * @param slices the controller-owned slice contents in index order; copied, no null elements
   * @param violations the validation problems in check order; empty means the pool may be
   *     published. Copied, no null elements.
   * @throws NullPointerException if a list or one of its elements is null
   */
  public DesiredPool {
    slices = List.copyOf(slices);
    violations = List.copyOf(violations);
  }
}
