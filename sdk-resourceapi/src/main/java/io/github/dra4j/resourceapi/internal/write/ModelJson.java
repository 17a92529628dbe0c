package io.github.dra4j.resourceapi.internal.write;

import io.github.dra4j.resourceapi.internal.field.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the JSON of an object into its fabric8 model object and back, as the API server decodes
 * a request body into its Go type and encodes what it stores. Stateless; the mapper is
 * thread-safe.
 */
final class ModelJson {

  private static final JsonMapper MAPPER = Json.mapper();

  private ModelJson() {}

  /**
   * Decodes an object.
   *
   * @param object the JSON
   * @param type the model class
   * @param <T> the model type
   * @return the model object (a new one)
   * @throws IllegalArgumentException if a field has the wrong JSON type, worded as the server's
   *     Go decoder words it
   */
  static <T> T decode(ObjectNode object, Class<T> type) {
    try {
      return MAPPER.treeToValue(object, type);
    } catch (DatabindException e) {
      throw new IllegalArgumentException(GoDecodeErrors.message(e, object), e);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("json: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * Encodes a model object.
   *
   * @param object the model object
   * @return its JSON (a new tree)
   */
  static ObjectNode encode(Object object) {
    return MAPPER.valueToTree(object);
  }

}
