package io.github.dra4j.benchmarks.clusterscale;

/**
 * How a node's driver is built: the SDK's default path, the opt-in claim cache, or a driver that
 * implements {@link io.github.dra4j.kubeletplugin.DraDriver} itself instead of using the claim
 * lifecycle.
 */
public enum DriverSetup {

  /** {@code ClaimLifecycle} driver, default settings: one GET per claim to prepare. */
  DEFAULT("default", true, false),

  /** {@code ClaimLifecycle} driver with {@code claimCache(true)}: an informer on all claims. */
  CLAIM_CACHE("claim cache", true, true),

  /**
   * A plain {@code DraDriver} without {@code ClaimLifecycle}, default settings: it keeps no
   * checkpoint, so {@code isPrepared} is false and every prepare reads its claims.
   */
  PLAIN_DRIVER("plain DraDriver", false, false);

  private final String label;
  private final boolean lifecycle;
  private final boolean claimCache;

  DriverSetup(String label, boolean lifecycle, boolean claimCache) {
    this.label = label;
    this.lifecycle = lifecycle;
    this.claimCache = claimCache;
  }

  /**
   * The column heading.
   *
   * @return for example {@code claim cache}
   */
  public String label() {
    return label;
  }

  /**
   * Whether the driver is a {@code ClaimLifecycle} (checkpoint, claim sweep, {@code isPrepared}).
   *
   * @return true for {@link #DEFAULT} and {@link #CLAIM_CACHE}
   */
  public boolean lifecycle() {
    return lifecycle;
  }

  /**
   * Whether the plugin is built with {@code claimCache(true)}.
   *
   * @return true for {@link #CLAIM_CACHE}
   */
  public boolean claimCache() {
    return claimCache;
  }
}
