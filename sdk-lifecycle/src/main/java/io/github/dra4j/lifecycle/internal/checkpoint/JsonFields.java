package io.github.dra4j.lifecycle.internal.checkpoint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Typed access to the members of a JSON object read from a checkpoint, failing with the field
 * path and the value: {@code claims["abc"].allocation[0].pool: must be a string, is 5}. Lenient
 * the way the format promises: members nobody asks for are ignored, and a missing or null
 * optional member gives its default. Any version's reader can use it. Stateless.
 */
final class JsonFields {

  private JsonFields() {}

  /** The path of a member: {@code path.field}, or {@code field} at the top. */
  static String child(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  /** The path of a map entry: {@code path["key"]}, the key quoted and escaped. */
  static String key(String path, String key) {
    return path + "[" + CheckpointValues.quote(key) + "]";
  }

  /** The path of an array element: {@code path[index]}. */
  static String index(String path, int index) {
    return path + "[" + index + "]";
  }

  /** The node as an object, failing if it is anything else. */
  static JsonNode object(JsonNode node, String path) throws CheckpointFormatException {
    if (node == null || !node.isObject()) {
      throw wrongType(path, "an object", node);
    }
    return node;
  }

  /** A member that must be a non-empty string. */
  static String requiredString(JsonNode object, String path, String field)
      throws CheckpointFormatException {
    String value = optionalString(object, path, field);
    if (value == null || value.isEmpty()) {
      throw new CheckpointFormatException(child(path, field) + ": required");
    }
    return value;
  }

  /** A member that may be a string, missing or null; null if missing or null. */
  static String optionalString(JsonNode object, String path, String field)
      throws CheckpointFormatException {
    JsonNode value = optionalValue(object, field);
    if (value == null) {
      return null;
    }
    if (!value.isString()) {
      throw wrongType(child(path, field), "a string", value);
    }
    return value.stringValue();
  }

  /** A member that may be true, false, missing or null; the default if missing or null. */
  static boolean optionalBoolean(JsonNode object, String path, String field, boolean otherwise)
      throws CheckpointFormatException {
    JsonNode value = optionalValue(object, field);
    if (value == null) {
      return otherwise;
    }
    if (!value.isBoolean()) {
      throw wrongType(child(path, field), "true or false", value);
    }
    return value.booleanValue();
  }

  /** The elements of a member that may be an array, missing or null; empty if missing. */
  static List<JsonNode> optionalArray(JsonNode object, String path, String field)
      throws CheckpointFormatException {
    JsonNode value = optionalValue(object, field);
    if (value == null) {
      return List.of();
    }
    if (!value.isArray()) {
      throw wrongType(child(path, field), "an array", value);
    }
    return List.copyOf(value.values());
  }

  /** The strings of a member that may be an array of strings, missing or null. */
  static List<String> stringList(JsonNode object, String path, String field)
      throws CheckpointFormatException {
    List<JsonNode> elements = optionalArray(object, path, field);
    List<String> strings = new ArrayList<>(elements.size());
    for (int i = 0; i < elements.size(); i++) {
      JsonNode element = elements.get(i);
      if (!element.isString()) {
        throw wrongType(index(child(path, field), i), "a string", element);
      }
      strings.add(element.stringValue());
    }
    return strings;
  }

  /** The entries of a member that may be an object of strings, missing or null. */
  static Map<String, String> stringMap(JsonNode object, String path, String field)
      throws CheckpointFormatException {
    JsonNode value = optionalValue(object, field);
    Map<String, String> strings = new LinkedHashMap<>();
    if (value == null) {
      return strings;
    }
    if (!value.isObject()) {
      throw wrongType(child(path, field), "an object", value);
    }
    for (Map.Entry<String, JsonNode> entry : value.properties()) {
      if (!entry.getValue().isString()) {
        throw wrongType(key(child(path, field), entry.getKey()), "a string", entry.getValue());
      }
      strings.put(entry.getKey(), entry.getValue().stringValue());
    }
    return strings;
  }

  /** A member's value, or null if it is missing or JSON null. */
  static JsonNode optionalValue(JsonNode object, String field) {
    JsonNode value = object.get(field);
    return value == null || value.isNull() || value.isMissingNode() ? null : value;
  }

  private static CheckpointFormatException wrongType(String path, String expected, JsonNode got) {
    return new CheckpointFormatException(path + ": must be " + expected + ", is " + describe(got));
  }

  /** A JSON value for a message: scalars as JSON text (shortened), containers by kind. */
  static String describe(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return "missing";
    }
    if (node.isObject()) {
      return "an object";
    }
    if (node.isArray()) {
      return "an array";
    }
    String text = node.toString();
    return text.length() > 80 ? text.substring(0, 80) + "..." : text;
  }
}
