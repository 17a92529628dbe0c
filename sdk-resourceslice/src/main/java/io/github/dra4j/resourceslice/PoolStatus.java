package io.github.dra4j.resourceslice;

import java.util.Objects;
import java.util.Optional;

/**
 * What the controller knows of one pool after a sync attempt: how many slices and devices of it
 * the API server holds, and why the attempt failed, if it did. After a success the counts are the
 * desired pool's (for a pool no longer desired, zero); after a failure they are what the
 * controller's informer sees of the pool, which is what stays published while it retries.
 *
 * @param pool the pool name
 * @param desired whether the pool is part of the desired resources ({@code false} for a pool
 *     being removed)
 * @param slices the pool's slices in the API server (the newest generation's after a success)
 * @param devices the devices in those slices
 * @param error why the sync failed (a {@link PoolValidationException} for a pool the controller
 *     refuses, otherwise the failed request's error); empty after a success
 */
public record PoolStatus(String pool, boolean desired, int slices, int devices,
    Optional<Throwable> error) {

  /**
   * Checks the fields.
   *
   * @param pool the pool name, not null
   * @param desired whether the pool is desired
   * @param slices at least 0
   * @param devices at least 0
   * @param error not null
   */
  public PoolStatus {
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(error, "error");
    if (slices < 0 || devices < 0) {
      throw new IllegalArgumentException("negative count: " + slices + " slices, " + devices
          + " devices");
    }
  }

  /**
   * Whether the last sync made the API server hold exactly the desired pool.
   *
   * @return true after a successful sync
   */
  public boolean published() {
    return error.isEmpty();
  }
}
