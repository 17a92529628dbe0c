package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The values of a device attribute as claim constraints compare them: a set of typed values.
 * Versions are compared as strings, as Kubernetes does in constraints, so {@code 1.0.0} and
 * {@code 1.0.0+b} differ; values of different types never equal each other. Stateless.
 */
final class AttributeValues {

  /** The type of an attribute value. */
  enum Kind {
    STRING, INT, BOOL, VERSION
  }

  /**
   * One typed value.
   *
   * @param kind the value's type
   * @param value a {@code String}, {@code Long} or {@code Boolean}
   */
  record Value(Kind kind, Object value) {}

  private AttributeValues() {}

  /**
   * Returns the values of an attribute.
   *
   * @param attribute the attribute, not null
   * @param listTypeAttributes true when list values count (feature gate {@code
   *     DRAListTypeAttributes} on): the first list set is the value set; false to see scalars
   *     only, so that an attribute holding only a list has no values
   * @return the values: one for a scalar, the distinct elements of a list, none when the
   *     attribute has no value the allocator recognises
   */
  static Set<Value> of(DeviceAttribute attribute, boolean listTypeAttributes) {
    if (listTypeAttributes) {
      Set<Value> list = list(attribute);
      if (!list.isEmpty()) {
        return list;
      }
    }
    if (attribute.getString() != null) {
      return Set.of(new Value(Kind.STRING, attribute.getString()));
    }
    if (attribute.getInt() != null) {
      return Set.of(new Value(Kind.INT, attribute.getInt()));
    }
    if (attribute.getBool() != null) {
      return Set.of(new Value(Kind.BOOL, attribute.getBool()));
    }
    if (attribute.getVersion() != null) {
      return Set.of(new Value(Kind.VERSION, attribute.getVersion()));
    }
    return Set.of();
  }

  /** Returns the first non-empty list of the attribute (ints, bools, strings, versions). */
  private static Set<Value> list(DeviceAttribute attribute) {
    if (isSet(attribute.getInts())) {
      return values(Kind.INT, attribute.getInts());
    }
    if (isSet(attribute.getBools())) {
      return values(Kind.BOOL, attribute.getBools());
    }
    if (isSet(attribute.getStrings())) {
      return values(Kind.STRING, attribute.getStrings());
    }
    if (isSet(attribute.getVersions())) {
      return values(Kind.VERSION, attribute.getVersions());
    }
    return Set.of();
  }

  private static boolean isSet(List<?> values) {
    return values != null && !values.isEmpty();
  }

  private static Set<Value> values(Kind kind, List<?> elements) {
    Set<Value> values = new LinkedHashSet<>();
    for (Object element : elements) {
      values.add(new Value(kind, element));
    }
    return values;
  }
}
