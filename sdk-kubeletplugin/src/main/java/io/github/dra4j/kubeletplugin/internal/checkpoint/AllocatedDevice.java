package io.github.dra4j.kubeletplugin.internal.checkpoint;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One device the scheduler allocated to a claim, as the claim's allocation result names it.
 * Recorded when preparing starts, so that a rollback after a crash knows which devices the
 * driver may have touched. Immutable: the map is copied, ordered by key and unmodifiable.
 *
 * @param request the allocation result's request name, {@code <request>} or {@code
 *     <request>/<subrequest>}; empty if the file did not have one
 * @param pool the pool of the device; not empty
 * @param device the device name within the pool; not empty
 * @param shareId the share ID of a device that can be allocated more than once, or null
 * @param adminAccess whether the device was allocated with admin access
 * @param consumedCapacity capacity consumed from a shared device, capacity name to quantity
 *     string (e.g. {@code memory -> 10Gi}); empty if none, null becomes empty
 */
public record AllocatedDevice(
    String request,
    String pool,
    String device,
    String shareId,
    boolean adminAccess,
    Map<String, String> consumedCapacity) {

  /**
   * Checks and copies the fields.
   *
   * @throws NullPointerException if request, a capacity name or a quantity is null
   * @throws IllegalArgumentException if pool or device is null or empty
   */
  public AllocatedDevice {
    Objects.requireNonNull(request, "request");
    pool = CheckpointValues.required("pool", pool);
    device = CheckpointValues.required("device", device);
    consumedCapacity = consumedCapacity == null
        ? Collections.emptySortedMap()
        : Collections.unmodifiableSortedMap(new TreeMap<>(Map.copyOf(consumedCapacity)));
  }

  /**
   * A device without share ID, admin access or consumed capacity.
   *
   * @param request the allocation result's request name
   * @param pool the pool
   * @param device the device name
   * @return the device
   */
  public static AllocatedDevice of(String request, String pool, String device) {
    return new AllocatedDevice(request, pool, device, null, false, Map.of());
  }
}
