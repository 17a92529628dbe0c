package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.github.dra4j.core.quantity.QuantityValue;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

// SHARED-CANDIDATE: Immutability.semanticallyEqual could take these refinements (empty maps and
// strings, quantities by value, timestamps by instant) so that one rule of semantic equality serves
// every kind; until then the status rule keeps its own.
/**
 * Whether a new {@code status.allocation} is the stored one, compared as the API server's
 * semantic equality compares its Go values: a missing list or map equals an empty one, a missing
 * string field equals an empty one (except {@code shareID}, which is a pointer), quantities are
 * compared by value ({@code 1Gi} equals {@code 1073741824}) and timestamps by instant. Opaque
 * configuration parameters are compared as JSON values; the server compares their bytes, so it
 * also tells apart the same JSON written with other spacing or key order, which an object decoded
 * from JSON no longer shows. Stateless.
 */
final class AllocationEquality {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  /** String fields that are pointers in the Go types: set to empty is not the same as unset. */
  private static final List<String> POINTER_STRINGS = List.of("shareID");

  private AllocationEquality() {}

  /**
   * Compares two allocations.
   *
   * @param allocation the new allocation, not null
   * @param stored the stored allocation, not null
   * @return true if the server takes them as the same
   */
  static boolean same(AllocationResult allocation, AllocationResult stored) {
    Object a = normalize(MAPPER.convertValue(allocation, Object.class), false);
    Object b = normalize(MAPPER.convertValue(stored, Object.class), false);
    return equal(a, b, "");
  }

  /** Drops what the Go types cannot tell from missing: nulls, empty lists, maps and strings. */
  private static Object normalize(Object value, boolean opaque) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        String key = String.valueOf(entry.getKey());
        boolean inOpaque = opaque || key.equals("parameters");
        Object item = normalize(entry.getValue(), inOpaque);
        if (!opaque && isZero(key, item)) {
          continue;
        }
        if (item != null) {
          out.put(key, item);
        }
      }
      return out;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(item -> normalize(item, opaque)).toList();
    }
    return value;
  }

  private static boolean isZero(String key, Object value) {
    return value == null
        || value instanceof List<?> list && list.isEmpty()
        || value instanceof Map<?, ?> map && map.isEmpty() && !key.equals("parameters")
        || value instanceof String text && text.isEmpty() && !POINTER_STRINGS.contains(key);
  }

  private static boolean equal(Object a, Object b, String key) {
    if (a instanceof Map<?, ?> mapA && b instanceof Map<?, ?> mapB) {
      if (!mapA.keySet().equals(mapB.keySet())) {
        return false;
      }
      boolean quantities = key.equals("consumedCapacity");
      for (Map.Entry<?, ?> entry : mapA.entrySet()) {
        Object other = mapB.get(entry.getKey());
        boolean same = quantities ? sameQuantity(entry.getValue(), other)
            : equal(entry.getValue(), other, String.valueOf(entry.getKey()));
        if (!same) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof List<?> listA && b instanceof List<?> listB) {
      if (listA.size() != listB.size()) {
        return false;
      }
      for (int i = 0; i < listA.size(); i++) {
        if (!equal(listA.get(i), listB.get(i), key)) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Number numberA && b instanceof Number numberB) {
      return new BigDecimal(numberA.toString()).compareTo(new BigDecimal(numberB.toString())) == 0;
    }
    if (key.equals("allocationTimestamp") && a instanceof String textA
        && b instanceof String textB) {
      return sameInstant(textA, textB);
    }
    return Objects.equals(a, b);
  }

  private static boolean sameQuantity(Object a, Object b) {
    Optional<QuantityValue> quantityA = QuantityValue.tryParse(String.valueOf(a));
    Optional<QuantityValue> quantityB = QuantityValue.tryParse(String.valueOf(b));
    if (quantityA.isPresent() && quantityB.isPresent()) {
      return quantityA.get().compareTo(quantityB.get()) == 0;
    }
    return Objects.equals(a, b);
  }

  private static boolean sameInstant(String a, String b) {
    try {
      return OffsetDateTime.parse(a).toInstant().equals(OffsetDateTime.parse(b).toInstant());
    } catch (DateTimeParseException e) {
      return a.equals(b);
    }
  }
}
