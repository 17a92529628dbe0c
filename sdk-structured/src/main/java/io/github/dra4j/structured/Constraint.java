package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A claim constraint tracked during the search: {@link MatchAttribute} or {@link
 * DistinctAttribute}. {@code add} is called when a device is chosen and may refuse it; {@code
 * remove} undoes a successful {@code add}. Mutable; owned by one allocation attempt.
 */
abstract class Constraint {

  private final Set<String> requests;
  final String attributeName;

  Constraint(List<String> requests, String attributeName) {
    this.requests = Set.copyOf(requests);
    this.attributeName = attributeName;
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
    Value value = lookup(device, attributeName);
    return value != null && accept(plan, value);
  }

  /** Undoes a successful {@link #add} of a device for this request. */
  final void remove(RequestPlan plan, PoolDevice device) {
    if (applies(plan)) {
      forget(plan);
    }
  }

  /** Judges and records the attribute value of a constrained device. */
  abstract boolean accept(RequestPlan plan, Value value);

  /** Forgets the latest accepted device of the request. */
  abstract void forget(RequestPlan plan);

  /**
   * Looks up a fully qualified attribute on a device: the attribute of exactly that name, or, when
   * the domain is the device's driver, the attribute named by the identifier alone.
   */
  static Value lookup(PoolDevice device, String qualifiedName) {
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
    return attribute == null ? null : Value.of(attribute);
  }

  /**
   * A scalar attribute value as constraints compare it: string, int, bool or version (versions
   * compare as strings, so {@code 1.0.0} and {@code 1.0.0+b} differ); anything else is {@code
   * OTHER} and never equals another value.
   */
  record Value(Kind kind, Object value) {
    enum Kind { STRING, INT, BOOL, VERSION, OTHER }

    static Value of(DeviceAttribute a) {
      if (a.getString() != null) {
        return new Value(Kind.STRING, a.getString());
      }
      if (a.getInt() != null) {
        return new Value(Kind.INT, a.getInt());
      }
      if (a.getBool() != null) {
        return new Value(Kind.BOOL, a.getBool());
      }
      if (a.getVersion() != null) {
        return new Value(Kind.VERSION, a.getVersion());
      }
      return new Value(Kind.OTHER, null);
    }

    boolean sameAs(Value other) {
      return kind != Kind.OTHER && kind == other.kind && Objects.equals(value, other.value);
    }
  }

  /** All constrained devices must have the same value of the attribute. */
  static final class MatchAttribute extends Constraint {
    private Value first;
    private int count;

    MatchAttribute(List<String> requests, String attributeName) {
      super(requests, attributeName);
    }

    @Override
    boolean accept(RequestPlan plan, Value value) {
      if (count == 0) {
        first = value;
        count = 1;
        return true;
      }
      if (!value.sameAs(first)) {
        return false;
      }
      count++;
      return true;
    }

    @Override
    void forget(RequestPlan plan) {
      count--;
    }
  }

  /**
   * Constrained devices must have different values of the attribute. Reproduces a Kubernetes
   * quirk: the value is remembered per request name, overwritten by each further device of that
   * request and forgotten when any of them is undone, so devices of one multi-device request are
   * only compared with the request's latest device.
   */
  static final class DistinctAttribute extends Constraint {
    private final Map<String, Value> remembered = new HashMap<>();

    DistinctAttribute(List<String> requests, String attributeName) {
      super(requests, attributeName);
    }

    @Override
    boolean accept(RequestPlan plan, Value value) {
      for (Value other : remembered.values()) {
        if (value.sameAs(other)) {
          return false;
        }
      }
      remembered.put(plan.resultName(), value);
      return true;
    }

    @Override
    void forget(RequestPlan plan) {
      remembered.remove(plan.resultName());
    }
  }
}
