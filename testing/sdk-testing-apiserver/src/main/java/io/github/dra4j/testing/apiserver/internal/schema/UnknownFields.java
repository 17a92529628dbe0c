package io.github.dra4j.testing.apiserver.internal.schema;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Finds the fields of a JSON object that its kind does not declare, the check a real API server
 * makes for {@code fieldValidation=Strict} and {@code Warn}. The declared fields are those of the
 * fabric8 model class of the kind, so a field newer than the fabric8 model in use counts as
 * unknown. Values whose type is open ({@code Object}, maps of them, raw extensions) are not looked
 * into. Duplicate keys are not detected. {@link #remove} drops them, as a real server does before
 * it stores an object whatever the directive. Immutable.
 */
public final class UnknownFields {

  private final ModelTypes types;

  /**
   * Creates the check.
   *
   * @param types the model lookup
   */
  public UnknownFields(ModelTypes types) {
    this.types = types;
  }

  /**
   * Lists the undeclared fields of an object, or of a merge patch of one.
   *
   * @param object the JSON object
   * @param kindClass the model class of its kind
   * @return paths such as {@code spec.selectors[0].cel.expresion}, in document order; empty if
   *     every field is declared
   */
  public List<String> find(JsonNode object, Class<?> kindClass) {
    List<String> unknown = new ArrayList<>();
    walk(object, kindClass, "", unknown, false);
    return unknown;
  }

  /**
   * Removes the undeclared fields of an object, in place.
   *
   * @param object the JSON object
   * @param kindClass the model class of its kind
   * @return the paths removed, as {@link #find} lists them
   */
  public List<String> remove(JsonNode object, Class<?> kindClass) {
    List<String> unknown = new ArrayList<>();
    walk(object, kindClass, "", unknown, true);
    return unknown;
  }

  private void walk(JsonNode node, Type type, String path, List<String> unknown, boolean remove) {
    if (node == null || node.isNull()) {
      return;
    }
    Shape shape = types.shapeOf(type);
    if (shape instanceof Shape.ObjectShape object && node.isObject()) {
      Map<String, Type> declared = types.properties(object.type());
      List<String> undeclared = new ArrayList<>();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
        Type fieldType = declared.get(field.getKey());
        if (fieldType == null) {
          unknown.add(fieldPath);
          undeclared.add(field.getKey());
        } else {
          walk(field.getValue(), fieldType, fieldPath, unknown, remove);
        }
      }
      if (remove && !undeclared.isEmpty()) {
        ((ObjectNode) node).remove(undeclared);
      }
    } else if (shape instanceof Shape.ArrayShape array && node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), array.element(), path + "[" + i + "]", unknown, remove);
      }
    } else if (shape instanceof Shape.MapShape map && node.isObject()) {
      for (Map.Entry<String, JsonNode> entry : node.properties()) {
        walk(entry.getValue(), map.value(), path + "[" + entry.getKey() + "]", unknown, remove);
      }
    }
  }
}
