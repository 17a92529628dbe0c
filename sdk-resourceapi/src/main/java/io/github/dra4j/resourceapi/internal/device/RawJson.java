package io.github.dra4j.resourceapi.internal.device;

import java.util.Collection;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Opaque JSON values (a RawExtension) as fabric8 decodes them: whether one is null or an
 * object, and its size as compact JSON. Stateless; the mapper is immutable.
 */
final class RawJson {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private RawJson() {}

  /** Whether the value is absent or JSON {@code null}. */
  static boolean isNull(Object value) {
    return value == null
        || value instanceof JsonNode node && (node.isNull() || node.isMissingNode());
  }

  /** Whether the value is a JSON object (a map, an object node, or a bean written as one). */
  static boolean isObject(Object value) {
    if (value instanceof JsonNode node) {
      return node.isObject();
    }
    return !(value instanceof CharSequence || value instanceof Number || value instanceof Boolean
        || value instanceof Collection<?> || value.getClass().isArray()
        || value instanceof Character) || value instanceof Map<?, ?>;
  }

  /** The number of bytes of the value written as compact JSON. */
  static int size(Object value) {
    return MAPPER.writeValueAsBytes(value).length;
  }
}
