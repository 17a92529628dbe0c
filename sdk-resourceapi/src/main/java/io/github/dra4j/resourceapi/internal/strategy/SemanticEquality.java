package io.github.dra4j.resourceapi.internal.strategy;

import io.github.dra4j.core.quantity.QuantityValue;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Compares two parts of objects as the server's {@code apiequality.Semantic.DeepEqual} does for
 * the generation rule: through their JSON form (fabric8 leaves out nulls and empty lists and
 * maps, so an empty list equals a missing one, as in Go), with quantities compared by value
 * ({@code 1} equals {@code 1000m}). Any two strings that both parse as quantities are compared by
 * value, which can only matter for fields that are not quantities but hold such strings.
 */
final class SemanticEquality {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private SemanticEquality() {}

  /**
   * Tells whether two values are semantically equal.
   *
   * @param a one value (a fabric8 model object), may be null
   * @param b the other, may be null
   * @return true if equal
   */
  static boolean equal(Object a, Object b) {
    return nodesEqual(tree(a), tree(b));
  }

  private static JsonNode tree(Object value) {
    return value == null ? MAPPER.missingNode() : MAPPER.valueToTree(value);
  }

  private static boolean nodesEqual(JsonNode a, JsonNode b) {
    if (isEmpty(a) || isEmpty(b)) {
      return isEmpty(a) && isEmpty(b);
    }
    if (a.isObject() && b.isObject()) {
      for (Map.Entry<String, JsonNode> field : a.properties()) {
        if (!nodesEqual(field.getValue(), b.path(field.getKey()))) {
          return false;
        }
      }
      for (Map.Entry<String, JsonNode> field : b.properties()) {
        if (a.get(field.getKey()) == null && !isEmpty(field.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      Iterator<JsonNode> left = a.iterator();
      Iterator<JsonNode> right = b.iterator();
      while (left.hasNext()) {
        if (!nodesEqual(left.next(), right.next())) {
          return false;
        }
      }
      return true;
    }
    if (a.isString() && b.isString()) {
      String x = a.asString();
      String y = b.asString();
      if (x.equals(y)) {
        return true;
      }
      Optional<QuantityValue> qx = QuantityValue.tryParse(x);
      Optional<QuantityValue> qy = QuantityValue.tryParse(y);
      return qx.isPresent() && qy.isPresent() && qx.get().compareTo(qy.get()) == 0;
    }
    return a.equals(b);
  }

  /**
   * An absent value, JSON null or an empty array: Go's semantic equality treats nil and empty
   * slices and maps alike (fabric8 writes empty maps as absent). An empty object stays a value:
   * it is a set pointer to an empty struct, which differs from nil.
   */
  private static boolean isEmpty(JsonNode node) {
    return node == null || node.isMissingNode() || node.isNull()
        || node.isArray() && node.isEmpty();
  }
}
