package io.github.dra4j.resourceapi.internal.field;

import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.resourceapi.FieldError;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * The API server's semantic equality ({@code apiequality.Semantic.DeepEqual}) for fabric8 model
 * values, compared through their JSON, and {@code ValidateImmutableField}, which uses it. It
 * decides when a spec changed (generation), when a stored allocation or spec was modified
 * (immutable fields) and when stored selectors can be trusted.
 *
 * <p>What Go cannot tell apart is equal here: an absent value, JSON null, an empty list, an empty
 * map and (except for {@code shareID}, a pointer in Go) an empty string. Quantities are compared
 * by value ({@code 1Gi} equals {@code 1073741824}, as Go's Quantity equality), in fields that hold
 * quantities; timestamps by instant. Opaque configuration ({@code parameters}) is compared as
 * written: Go compares its bytes. Stateless.
 */
public final class SemanticEquality {

  /** The detail of a changed immutable field. */
  public static final String FIELD_IS_IMMUTABLE = "field is immutable";

  /** Fields whose values are quantities (or maps of them). */
  private static final List<String> QUANTITY_FIELDS = List.of("value", "consumedCapacity",
      "default", "validValues", "min", "max", "step");

  /** String fields that are pointers in the Go types: set to empty is not unset. */
  private static final List<String> POINTER_STRINGS = List.of("shareID");

  private SemanticEquality() {}

  /**
   * Tells whether two values are semantically equal.
   *
   * @param a one value (a model object, collection, map, string, number), may be null
   * @param b the other, may be null
   * @return true if the API server would find them equal, by the rules above
   */
  public static boolean equal(Object a, Object b) {
    return equal(Json.tree(a), Json.tree(b), "");
  }

  /**
   * {@code ValidateImmutableField}: an error if a field changed.
   *
   * @param value the new value
   * @param old the stored value
   * @param printed the new value as the error shows it, asked for only if it changed
   * @param path the field
   * @return no error, or {@code <path>: Invalid value: <printed>: field is immutable}
   */
  public static List<FieldError> immutable(Object value, Object old, Supplier<Object> printed,
      FieldPath path) {
    return equal(value, old) ? List.of()
        : List.of(Errors.invalid(path, printed.get(), FIELD_IS_IMMUTABLE));
  }

  private static boolean equal(JsonNode a, JsonNode b, String key) {
    if (isZero(a, key) || isZero(b, key)) {
      return isZero(a, key) && isZero(b, key);
    }
    if (key.equals("parameters")) {
      return a.equals(b);
    }
    if (a.isObject() && b.isObject()) {
      for (Map.Entry<String, JsonNode> field : a.properties()) {
        JsonNode other = b.get(field.getKey());
        if (!equal(field.getValue(), other == null ? Json.tree(null) : other,
            childKey(key, field.getKey()))) {
          return false;
        }
      }
      for (Map.Entry<String, JsonNode> field : b.properties()) {
        if (a.get(field.getKey()) == null && !isZero(field.getValue(), field.getKey())) {
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
        if (!equal(left.next(), right.next(), key)) {
          return false;
        }
      }
      return true;
    }
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.isString() && b.isString()) {
      return sameText(a.asString(), b.asString(), key);
    }
    return a.equals(b);
  }

  /** Map entries of a quantity map stay quantities; other children are named by their key. */
  private static String childKey(String parent, String key) {
    return parent.equals("consumedCapacity") ? parent : key;
  }

  private static boolean sameText(String a, String b, String key) {
    if (a.equals(b)) {
      return true;
    }
    if (QUANTITY_FIELDS.contains(key)) {
      Optional<QuantityValue> qa = QuantityValue.tryParse(a);
      Optional<QuantityValue> qb = QuantityValue.tryParse(b);
      return qa.isPresent() && qb.isPresent() && qa.get().compareTo(qb.get()) == 0;
    }
    if (key.endsWith("Timestamp") || key.equals("timeAdded")
        || key.equals("lastTransitionTime")) {
      try {
        return OffsetDateTime.parse(a).toInstant().equals(OffsetDateTime.parse(b).toInstant());
      } catch (DateTimeParseException e) {
        return false;
      }
    }
    return false;
  }

  private static boolean isZero(JsonNode node, String key) {
    return node == null || node.isMissingNode() || node.isNull()
        || (node.isArray() && node.isEmpty())
        || (node.isObject() && node.isEmpty() && !key.equals("parameters"))
        || (node.isString() && node.asString().isEmpty() && !POINTER_STRINGS.contains(key));
  }
}
