package io.github.dra4j.cdi.spec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Immutable copies for the model's compact constructors: null becomes empty, null items fail. */
final class Copies {
  private Copies() {}

  static String text(String value) {
    return value == null ? "" : value;
  }

  static <T> List<T> list(String field, List<T> values) {
    if (values == null) {
      return List.of();
    }
    List<T> copy = new ArrayList<>(values.size());
    for (T value : values) {
      if (value == null) {
        throw new IllegalArgumentException(field + " must not contain null: " + values);
      }
      copy.add(value);
    }
    return Collections.unmodifiableList(copy);
  }

  static List<String> nullableList(String field, List<String> values) {
    return values == null ? null : list(field, values);
  }

  /** Sorted so that serialized maps have deterministic bytes, like the reference writer. */
  static SortedMap<String, String> sortedMap(String field, Map<String, String> values) {
    if (values == null) {
      return Collections.emptySortedMap();
    }
    TreeMap<String, String> copy = new TreeMap<>();
    values.forEach((key, value) -> {
      if (key == null || value == null) {
        throw new IllegalArgumentException(
            field + " must not contain null keys or values: " + key + "=" + value);
      }
      copy.put(key, value);
    });
    return Collections.unmodifiableSortedMap(copy);
  }

  static long unsigned32(String field, long value) {
    if (value < 0 || value > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException(
          field + " " + value + " is out of range, must be 0 to 4294967295");
    }
    return value;
  }
}
