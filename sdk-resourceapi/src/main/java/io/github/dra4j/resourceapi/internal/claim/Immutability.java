package io.github.dra4j.resourceapi.internal.claim;

import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Apimachinery's {@code ValidateImmutableField} and the semantic equality it uses ({@code
 * equality.Semantic.DeepEqual}), for fabric8 objects: two values are equal if their JSON is, with
 * absent, null and empty lists alike (Go does not tell a nil slice from an empty one). Quantities
 * are compared as written. Stateless.
 */
// SHARED-CANDIDATE: ValidateImmutableField and Semantic.DeepEqual are used by slices, taint rules
// and status rules too.
public final class Immutability {

  /** The detail of a changed immutable field. */
  public static final String FIELD_IS_IMMUTABLE = "field is immutable";

  private Immutability() {}

  /**
   * Checks that a field did not change.
   *
   * @param value the new value
   * @param old the stored value
   * @param printed the new value as the error shows it ({@link GoValues#print} rules; a {@link
   *     GoValues.Raw} for a structure), asked for only if it changed
   * @param path the field
   * @return no error, or {@code <path>: Invalid value: <printed>: field is immutable}
   */
  public static List<FieldError> immutable(Object value, Object old, Supplier<Object> printed,
      FieldPath path) {
    if (semanticallyEqual(value, old)) {
      return List.of();
    }
    return List.of(Errors.invalid(path, printed.get(), FIELD_IS_IMMUTABLE));
  }

  /**
   * Tells whether two values are equal as Go's semantic equality sees them.
   *
   * @param a a fabric8 object, collection, map, string, number or null
   * @param b another
   * @return true if their JSON is the same once nulls and empty lists are left out
   */
  public static boolean semanticallyEqual(Object a, Object b) {
    return normalize(PlainJson.tree(a)).equals(normalize(PlainJson.tree(b)));
  }

  /** Drops null fields and empty arrays, recursively; turns a null or empty array to null. */
  private static JsonNode normalize(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()
        || node.isArray() && node.isEmpty()) {
      return PlainJson.nullNode();
    }
    if (node.isArray()) {
      var array = PlainJson.arrayNode();
      for (JsonNode item : node) {
        array.add(normalize(item));
      }
      return array;
    }
    if (node.isObject()) {
      ObjectNode object = PlainJson.objectNode();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
          it.hasNext(); ) {
        Map.Entry<String, JsonNode> entry = it.next();
        JsonNode child = normalize(entry.getValue());
        if (!child.isNull()) {
          object.set(entry.getKey(), child);
        }
      }
      return object;
    }
    return node;
  }
}
