package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.option.OptionChecks;
import java.time.Duration;
import java.util.Objects;

/**
 * How the plugin publishes the driver's ResourceSlices ({@link KubeletPlugin#publishResources}).
 * Set with {@link KubeletPluginBuilder#slices}.
 *
 * @param reconcilePoolWithName the name of the one pool the plugin publishes whose slices are not
 *     tied to this node (for network-attached devices): the slices carry no node name, so the pool
 *     must set a node selector, all-nodes, or per-device node selection. Default empty (node-local
 *     slices)
 * @param syncDelay how long the ResourceSlice controller waits after a slice event before syncing
 *     the pool; null (the default) for the controller's own, 30 s. Shorter values make tests and
 *     demos converge faster
 */
public record SliceOptions(String reconcilePoolWithName, Duration syncDelay) {

  /** The defaults: node-local slices, the controller's sync delay. */
  public static final SliceOptions DEFAULTS = new SliceOptions("", null);

  /**
   * Checks the options.
   *
   * @param reconcilePoolWithName the one pool not tied to this node; empty for none
   * @param syncDelay the controller's sync delay; null for its own
   * @throws IllegalArgumentException if {@code syncDelay} is set and not positive
   * @throws NullPointerException if {@code reconcilePoolWithName} is null
   */
  public SliceOptions {
    Objects.requireNonNull(reconcilePoolWithName, "reconcilePoolWithName");
    if (syncDelay != null) {
      OptionChecks.positive(syncDelay, "sliceSyncDelay");
    }
  }

  /**
   * These options with one pool not tied to this node.
   *
   * @param poolName the pool name
   * @return the new options
   */
  public SliceOptions withReconcilePoolWithName(String poolName) {
    return new SliceOptions(poolName, syncDelay);
  }

  /**
   * These options with another sync delay.
   *
   * @param delay a positive duration
   * @return the new options
   */
  public SliceOptions withSyncDelay(Duration delay) {
    return new SliceOptions(reconcilePoolWithName, OptionChecks.positive(delay, "sliceSyncDelay"));
  }
}
