package io.github.dra4j.resourceslice;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a driver publishes: its pools by name. A pool missing here has its slices deleted.
 *
 * @param pools pool name to pool, in the caller's order; unmodifiable
 */
public record DriverResources(Map<String, Pool> pools) {

  /**
   * Copies the map, keeping its order.
   *
   * @param pools pool name to pool; null means no pools. The copy is unmodifiable and keeps the
   *     caller's iteration order; later changes to the caller's map are not seen.
   * @throws NullPointerException if a pool name or a pool is null (the message names the pool)
   */
  public DriverResources {
    Map<String, Pool> copy = new LinkedHashMap<>();
    if (pools != null) {
      pools.forEach((name, pool) -> copy.put(
          Objects.requireNonNull(name, "pool name"),
          Objects.requireNonNull(pool, () -> "pool \"" + name + "\"")));
    }
    pools = Collections.unmodifiableMap(copy);
  }

  /**
   * Publishes nothing.
   *
   * @return resources without pools
   */
  public static DriverResources empty() {
    return new DriverResources(Map.of());
  }

  /**
   * Resources of a single pool.
   *
   * @param poolName the pool name
   * @param pool the pool
   * @return the resources
   */
  public static DriverResources of(String poolName, Pool pool) {
    return new DriverResources(Map.of(poolName, pool));
  }

  /**
   * Starts building resources.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link DriverResources}. Not thread-safe. */
  public static final class Builder {
    private final Map<String, Pool> pools = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Adds or replaces a pool.
     *
     * @param name the pool name
     * @param pool the pool
     * @return this builder
     */
    public Builder pool(String name, Pool pool) {
      pools.put(name, pool);
      return this;
    }

    /**
     * Builds the resources.
     *
     * @return the resources
     */
    public DriverResources build() {
      return new DriverResources(pools);
    }
  }
}
