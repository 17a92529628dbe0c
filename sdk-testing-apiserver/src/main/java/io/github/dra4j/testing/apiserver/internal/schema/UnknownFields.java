package io.github.dra4j.testing.apiserver.internal.schema;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Finds the fields of a JSON object that its kind does not declare, the check a real API server
 * makes for {@code fieldValidation=Strict} and {@code Warn}. The declared fields are those of the
 * fabric8 model class of the kind, so a field newer than the fabric8 model in use counts as
 * unknown. Values whose type is open ({@code Object}, maps of them, raw extensions) are not looked
 * into. Duplicate keys are not detected. Immutable.
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
    walk(object, kindClass, "", unknown);
    return unknown;
  }

  private void walk(JsonNode node, Type type, String path, List<String> unknown) {
    if (node == null || node.isNull()) {
      return;
    }
    Shape shape = types.shapeOf(type);
    if (shape instanceof Shape.ObjectShape object && node.isObject()) {
      Map<String, Type> declared = types.properties(object.type());
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        String fieldPath = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
        Type fieldType = declared.get(field.getKey());
        if (fieldType == null) {
          unknown.add(fieldPath);
        } else {
          walk(field.getValue(), fieldType, fieldPath, unknown);
        }
      }
    } else if (shape instanceof Shape.ArrayShape array && node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), array.element(), path + "[" + i + "]", unknown);
      }
    } else if (shape instanceof Shape.MapShape map && node.isObject()) {
      for (Map.Entry<String, JsonNode> entry : node.properties()) {
        walk(entry.getValue(), map.value(), path + "[" + entry.getKey() + "]", unknown);
      }
    }
  }
}
