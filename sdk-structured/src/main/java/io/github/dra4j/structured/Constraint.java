package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A claim constraint tracked during the search: {@link MatchAttribute} or {@link
 * DistinctAttribute}. {@code add} is called when a device is chosen and may refuse it; {@code
 * remove} undoes a successful {@code add}, always in the reverse order of the adds. Mutable; owned
 * by one allocation attempt.
 *
 * <p>An attribute is compared as a set of typed values ({@link AttributeValues}). With the feature
 * gate {@code DRAListTypeAttributes} off, as in the allocator Kubernetes 1.36 runs by default, a
 * scalar is a one-value set and a list attribute has no value Kubernetes recognises (an empty
 * set). With the gate on, a list is the set of its values, and scalars keep being one-value sets.
 */
abstract class Constraint {

  private final Set<String> requests;
  private final String attributeName;
  final boolean listTypeAttributes;

  Constraint(List<String> requests, String attributeName, boolean listTypeAttributes) {
    this.requests = Set.copyOf(requests);
    this.attributeName = attributeName;
    this.listTypeAttributes = listTypeAttributes;
  }

  /** Returns the fully qualified attribute name the constraint is about. */
  String attributeName() {
    return attributeName;
  }

  /** Returns whether a device for this request (and chosen subrequest) is constrained. */
  boolean applies(RequestPlan plan) {
    return requests.isEmpty()
        || requests.contains(plan.baseName())
        || (plan.subName() != null && requests.contains(plan.resultName()));
  }

  /**
   * Offers a chosen device: devices of unconstrained requests pass, devices without the
   * attribute are refused, others are judged by {@link #accept}.
   */
  final boolean add(RequestPlan plan, PoolDevice device) {
    if (!applies(plan)) {
      return true;
    }
    DeviceAttribute attribute = lookup(device, attributeName);
    return attribute != null
        && accept(plan, AttributeValues.of(attribute, listTypeAttributes));
  }

  /** Undoes a successful {@link #add} of a device for this request. */
  final void remove(RequestPlan plan, PoolDevice device) {
    if (applies(plan)) {
      forget(plan);
    }
  }

  /** Judges and records the attribute values of a constrained device. */
  abstract boolean accept(RequestPlan plan, Set<AttributeValues.Value> values);

  /** Forgets the latest accepted device of the request. */
  abstract void forget(RequestPlan plan);

  /**
   * Looks up a fully qualified attribute on a device: the attribute of exactly that name, or, when
   * the domain is the device's driver, the attribute named by the identifier alone.
   */
  static DeviceAttribute lookup(PoolDevice device, String qualifiedName) {
    Map<String, DeviceAttribute> attributes = device.device().getAttributes();
    if (attributes == null) {
      return null;
    }
    DeviceAttribute attribute = attributes.get(qualifiedName);
    if (attribute == null) {
      int slash = qualifiedName.indexOf('/');
      if (slash < 0 || !qualifiedName.substring(0, slash).equals(device.id().driver())) {
        return null;
      }
      attribute = attributes.get(qualifiedName.substring(slash + 1));
    }
    return attribute;
  }

  /**
   * All constrained devices must share a value of the attribute: the running intersection of
   * their value sets must not become empty. For scalars that means the same type and value. The
   * intersection before each device is kept, so undoing a device restores it exactly. Reproduces
   * a Kubernetes quirk with the list gate off: the first device is accepted even without a value
   * Kubernetes recognises, and then no further device matches it.
   */
  static final class MatchAttribute extends Constraint {
    private final Deque<Set<AttributeValues.Value>> intersections = new ArrayDeque<>();

    MatchAttribute(List<String> requests, String attributeName, boolean listTypeAttributes) {
      super(requests, attributeName, listTypeAttributes);
    }

    @Override
    boolean accept(RequestPlan plan, Set<AttributeValues.Value> values) {
      Set<AttributeValues.Value> common;
      if (intersections.isEmpty()) {
        common = values;
        if (common.isEmpty() && listTypeAttributes) {
          return false;
        }
      } else {
        common = new HashSet<>(intersections.peek());
        common.retainAll(values);
        if (common.isEmpty()) {
          return false;
        }
      }
      intersections.push(common);
      return true;
    }

    @Override
    void forget(RequestPlan plan) {
      intersections.pop();
    }
  }

  /**
   * Constrained devices must not share a value of the attribute: their value sets must be
   * pairwise disjoint (for scalars: values of different types never conflict). Reproduces a
   * Kubernetes quirk: the values are remembered per request name, overwritten by each further
   * device of that request and forgotten when any of them is undone, so devices of one
   * multi-device request are only compared with the request's latest device.
   */
  static final class DistinctAttribute extends Constraint {
    private final Map<String, Set<AttributeValues.Value>> remembered = new HashMap<>();

    DistinctAttribute(List<String> requests, String attributeName, boolean listTypeAttributes) {
      super(requests, attributeName, listTypeAttributes);
    }

    @Override
    boolean accept(RequestPlan plan, Set<AttributeValues.Value> values) {
      for (Set<AttributeValues.Value> other : remembered.values()) {
        if (!Collections.disjoint(values, other)) {
          return false;
        }
      }
      remembered.put(plan.resultName(), values);
      return true;
    }

    @Override
    void forget(RequestPlan plan) {
      remembered.remove(plan.resultName());
    }
  }
}
