package io.github.dra4j.resourceapi.internal.field;

import io.github.dra4j.resourceapi.FieldError;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * How the API server checks lists and maps: a size limit that, when exceeded, is the only error
 * reported for the field (so an oversized list costs no more to refuse than a small one), each
 * item's own rules, and duplicates by a key. Stateless.
 */
public final class Collections {

  /** Map keys longer than this are shortened in the middle in field paths. */
  private static final int MIN_TRUNCATED_KEY = 16;

  private Collections() {}

  /**
   * Checks a list's size, then each item.
   *
   * @param items the list, null for none
   * @param maxSize the limit, negative for none
   * @param item the rules of one item, given the item and its path
   * @param path the list's path
   * @param <T> the item type
   * @return the errors: only {@code Too many} if the list is too long
   */
  public static <T> List<FieldError> list(List<T> items, int maxSize,
      BiFunction<T, FieldPath, List<FieldError>> item, FieldPath path) {
    List<T> list = items == null ? List.of() : items;
    List<FieldError> errors = new ArrayList<>();
    if (maxSize >= 0 && list.size() > maxSize) {
      errors.add(Errors.tooMany(path, list.size(), maxSize));
      return errors;
    }
    for (int i = 0; i < list.size(); i++) {
      errors.addAll(item.apply(list.get(i), path.index(i)));
    }
    return errors;
  }

  /**
   * Checks a list whose items must be unique by a key: the size, each item, then one {@code
   * Duplicate value} for each item whose key an earlier item has.
   *
   * @param items the list, null for none
   * @param maxSize the limit, negative for none
   * @param item the rules of one item
   * @param key the item's key, printed in the duplicate error
   * @param path the list's path
   * @param <T> the item type
   * @return the errors
   */
  public static <T> List<FieldError> set(List<T> items, int maxSize,
      BiFunction<T, FieldPath, List<FieldError>> item, Function<T, ?> key, FieldPath path) {
    List<FieldError> errors = list(items, maxSize, item, path);
    if (items == null || (maxSize >= 0 && items.size() > maxSize)) {
      return errors;
    }
    Set<Object> seen = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      Object k = key.apply(items.get(i));
      if (!seen.add(k)) {
        errors.add(Errors.duplicate(path.index(i), k));
      }
    }
    return errors;
  }

  /**
   * Checks a map: its size, then each key (reported at the map's path) and each value (at the
   * key's path, with long keys shortened in the middle).
   *
   * @param map the map, null for none
   * @param maxSize the limit, negative for none
   * @param truncateKeyLength keys longer than this (at least 16) are shortened in paths
   * @param key the rules of a key, given the key and the map's path
   * @param value the rules of a value, given the value and the entry's path
   * @param path the map's path
   * @param <V> the value type
   * @return the errors: only {@code Too many} if the map is too large
   */
  public static <V> List<FieldError> map(Map<String, V> map, int maxSize, int truncateKeyLength,
      BiFunction<String, FieldPath, List<FieldError>> key,
      BiFunction<V, FieldPath, List<FieldError>> value, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (map == null) {
      return errors;
    }
    if (maxSize >= 0 && map.size() > maxSize) {
      errors.add(Errors.tooMany(path, map.size(), maxSize));
      return errors;
    }
    for (Map.Entry<String, V> entry : map.entrySet()) {
      errors.addAll(key.apply(entry.getKey(), path));
      errors.addAll(value.apply(entry.getValue(),
          path.key(truncate(entry.getKey(), truncateKeyLength))));
    }
    return errors;
  }

  /**
   * Shortens a long map key for a field path: the start and the end, joined by {@code ...}.
   *
   * @param key the key
   * @param maxLength the length to keep (raised to 16 if smaller)
   * @return the key, or its shortened form
   */
  public static String truncate(String key, int maxLength) {
    int max = Math.max(maxLength, MIN_TRUNCATED_KEY);
    if (key.length() <= max) {
      return key;
    }
    int remaining = max - 3;
    return key.substring(0, (remaining + 1) / 2) + "..."
        + key.substring(key.length() - remaining / 2);
  }
}
