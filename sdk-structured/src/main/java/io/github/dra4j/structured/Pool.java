package io.github.dra4j.structured;

import io.github.dra4j.core.quantity.QuantityValue;
import java.util.List;
import java.util.Map;

/**
 * A resource pool as gathered for one node: its devices targeting the node (in scan order), the
 * devices of its other slices (for counter accounting only), its counter sets, and whether it is
 * usable. Incomplete and invalid pools are kept for error reporting but never allocated from.
 * Owned by one allocation attempt.
 *
 * @param driver the driver name
 * @param name the pool name
 * @param devices devices of slices targeting the node, slice by slice (name order), in slice order
 * @param otherDevices devices of the pool's slices that do not target the node
 * @param counterSets counter set name to (counter name to value)
 * @param incomplete true when not all slices of the pool's generation are visible
 * @param invalidReason why the pool is invalid, or null
 * @param bindingConditions true when a device targeting the node has binding conditions
 */
record Pool(
    String driver,
    String name,
    List<PoolDevice> devices,
    List<PoolDevice> otherDevices,
    Map<String, Map<String, QuantityValue>> counterSets,
    boolean incomplete,
    String invalidReason,
    boolean bindingConditions) {

  /** Returns {@code driver/pool}, as Kubernetes names pools in messages. */
  String id() {
    return driver + "/" + name;
  }

  /** Returns true when devices may be allocated from this pool. */
  boolean usable() {
    return !incomplete && invalidReason == null;
  }
}
