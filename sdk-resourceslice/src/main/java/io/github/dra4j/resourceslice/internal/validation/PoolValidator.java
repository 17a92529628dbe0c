package io.github.dra4j.resourceslice.internal.validation;

import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.ResourceApiRules;
import io.github.dra4j.resourceslice.Owner;
import io.github.dra4j.resourceslice.Pool;
import io.github.dra4j.resourceslice.Slice;
import io.github.dra4j.resourceslice.internal.sync.NewSlices;
import io.github.dra4j.resourceslice.internal.sync.PoolPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a pool before anything is sent, one message per violation. First come the controller's
 * own consistency checks across the pool, with the Go controller's texts (duplicate counter
 * sets, duplicate devices, unknown counter sets, unknown counters); then each slice the
 * controller would create for the pool ({@link NewSlices}) goes through the API server's
 * validation of a ResourceSlice create ({@link ResourceApiRules}, Kubernetes 1.36), reported as
 * {@code pool "p", slice #0: spec.devices[0].name: Invalid value: "GPU-0": ...}: the server's
 * field path and text. Immutable and thread-safe.
 */
public final class PoolValidator {

  /**
   * A Node owner's missing UID is looked up before the first write; the server only requires a
   * non-empty one, so this stands in for it.
   */
  private static final String LOOKED_UP_UID = "looked-up-before-the-first-write";

  private final NewSlices newSlices;
  private final ResourceApiRules rules;

  /**
   * Creates a validator.
   *
   * @param newSlices builds the slices the controller creates (driver, owner, node name)
   */
  public PoolValidator(NewSlices newSlices) {
    this.newSlices = newSlices;
    this.rules = ResourceApiRules.kubernetes136();
  }

  /**
   * Checks, once at controller start, that the server accepts slices of this driver: the errors
   * of the driver name ({@code spec.driver}: a DNS subdomain of at most 63 bytes, upper case
   * allowed) and of the {@code generateName} made from it ({@code
   * <index>-<driver>-<owner>-}, which must be a lowercase DNS subdomain), for an empty slice of
   * a valid pool.
   *
   * @return the problem ({@code DRA driver name "<name>": <the server's errors>}), or empty
   */
  public Optional<String> driverNameProblem() {
    Slice empty = new Slice(List.of(), List.of(), null);
    ResourceSlice probe = newSlices.build(LOOKED_UP_UID, PoolPlan.header("pool", 0, 1), 0, null,
        newSlices.nodeName() == null, empty);
    List<FieldError> errors = rules.validate(probe).stream()
        .filter(e -> e.field().equals("spec.driver")
            || e.field().equals("metadata.generateName"))
        .toList();
    return errors.isEmpty() ? Optional.empty()
        : Optional.of("DRA driver name \"" + newSlices.driverName() + "\": "
            + FieldError.join(errors));
  }

  /**
   * Validates a pool.
   *
   * @param poolName the pool name
   * @param pool the pool as the controller will publish it
   * @return the violations in check order; empty if the pool may be published
   */
  public List<String> validate(String poolName, Pool pool) {
    List<String> violations = new ArrayList<>();
    consistency(poolName, pool, violations);
    int count = pool.slices().size();
    for (int i = 0; i < count; i++) {
      // The generation the sync publishes is never below the driver's floor; the server only
      // requires it not to be negative, which the floor is not.
      ResourceSlice slice = newSlices.build(ownerUid(),
          PoolPlan.header(poolName, pool.generation(), count), i, pool.nodeSelector(),
          pool.allNodes(), pool.slices().get(i));
      for (FieldError error : rules.validate(slice)) {
        violations.add("pool \"" + poolName + "\", slice #" + i + ": " + error);
      }
    }
    return violations;
  }

  /**
   * The consistency checks across the pool: counter sets and devices named once, consumed
   * counter sets and counters that exist; with the Go controller's messages, in its order, so a
   * driver ported from Go reports the same first problem.
   */
  private static void consistency(String poolName, Pool pool, List<String> violations) {
    Map<String, CounterSet> counterSets = new HashMap<>();
    for (Slice slice : pool.slices()) {
      for (CounterSet set : slice.sharedCounters()) {
        if (counterSets.putIfAbsent(set.getName(), set) != null) {
          violations.add("found duplicate counter set \"" + set.getName() + "\" in pool \""
              + poolName + "\"");
        }
      }
    }
    Set<String> deviceNames = new HashSet<>();
    for (Slice slice : pool.slices()) {
      for (Device device : slice.devices()) {
        if (!deviceNames.add(device.getName())) {
          violations.add("found duplicate device \"" + device.getName() + "\" in pool \""
              + poolName + "\"");
        }
        for (DeviceCounterConsumption consumption : nullSafe(device.getConsumesCounters())) {
          CounterSet set = counterSets.get(consumption.getCounterSet());
          if (set == null) {
            violations.add("counter set \"" + consumption.getCounterSet()
                + "\" referenced by device \"" + device.getName() + "\" not found");
            continue;
          }
          Map<String, Counter> available = nullSafe(set.getCounters());
          for (String counter : nullSafe(consumption.getCounters()).keySet()) {
            if (!available.containsKey(counter)) {
              violations.add("counter \"" + counter + "\" referenced by device \""
                  + device.getName() + "\" not found in counter set \"" + set.getName() + "\"");
            }
          }
        }
      }
    }
  }

  /** The UID the sync puts in the owner reference (a Node owner's is looked up if missing). */
  private String ownerUid() {
    Owner owner = newSlices.owner();
    if (owner == null) {
      return null;
    }
    return owner.uid().isEmpty() && owner.isNode() ? LOOKED_UP_UID : owner.uid();
  }

  private static <T> List<T> nullSafe(List<T> list) {
    return list == null ? List.of() : list;
  }

  private static <K, V> Map<K, V> nullSafe(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }
}
