package io.github.dra4j.resourceapi;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Builds fabric8 objects and JSON trees from JSON text in tests, and prints them back. */
public final class TestJson {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private TestJson() {}

  /**
   * Reads an object.
   *
   * @param json the JSON text
   * @param type the fabric8 model class
   * @param <T> the type
   * @return the object
   */
  public static <T> T read(String json, Class<T> type) {
    return MAPPER.readValue(json, type);
  }

  /**
   * Reads a JSON object tree.
   *
   * @param json the JSON text of an object
   * @return the tree
   */
  public static ObjectNode node(String json) {
    return (ObjectNode) MAPPER.readTree(json);
  }

  /**
   * Returns the JSON tree of an object.
   *
   * @param value a model object
   * @return its tree
   */
  public static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /**
   * Copies an object deeply.
   *
   * @param value a model object
   * @param <T> its type
   * @return the copy
   */
  @SuppressWarnings("unchecked")
  public static <T> T copy(T value) {
    return (T) MAPPER.convertValue(value, value.getClass());
  }
}
