package io.github.dra4j.resourceapi.internal.claim;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the values fabric8 decodes free-form JSON into ({@code RawExtension}, {@code
 * GenericKubernetesResource}, ...) back into plain JSON: maps, lists, strings, numbers, booleans,
 * or into a tree. Stateless; the mapper is thread-safe.
 */
final class PlainJson {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private PlainJson() {}

  /**
   * Returns a value as plain Java JSON values.
   *
   * @param value a fabric8 value, or null
   * @return a {@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean}, or
   *     null for none or JSON null
   */
  static Object plain(Object value) {
    return value == null ? null : MAPPER.convertValue(value, Object.class);
  }

  /**
   * Returns a value's JSON tree.
   *
   * @param value any value fabric8 or Jackson can write, or null
   * @return the tree; a null node for null
   */
  static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /**
   * Returns the null node.
   *
   * @return JSON null
   */
  static JsonNode nullNode() {
    return MAPPER.nullNode();
  }

  /**
   * Returns a new empty object node.
   *
   * @return {@code {}}
   */
  static ObjectNode objectNode() {
    return MAPPER.createObjectNode();
  }

  /**
   * Returns a new empty array node.
   *
   * @return {@code []}
   */
  static ArrayNode arrayNode() {
    return MAPPER.createArrayNode();
  }
}
