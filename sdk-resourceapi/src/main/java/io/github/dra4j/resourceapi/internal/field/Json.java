package io.github.dra4j.resourceapi.internal.field;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * The one JSON mapper of the rules, for fabric8's model objects: trees, plain values, copies and
 * sizes. Values are read as strictly as Go's decoder reads them (a number for a string field, a
 * string for a number, a fraction for an integer are refused). Opaque values (a configuration's {@code parameters}, a device status's {@code data}) are
 * read as plain JSON values (maps, lists, strings, numbers, booleans) rather than with fabric8's
 * own reader, which refuses a JSON array and wraps everything else: the server takes any JSON
 * there and refuses what is no object in validation, with a 422. Stateless; the mapper is
 * immutable and thread-safe.
 */
public final class Json {

  private static final JsonMapper MAPPER = JsonMapper.builder()
      .addMixIn(OpaqueDeviceConfiguration.class, OpaqueParameters.class)
      .addMixIn(AllocatedDeviceStatus.class, StatusData.class)
      // As strict as Go's decoder: no "2" for a number, no 1.5 for an integer, no 1 for a string.
      .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
      .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
      .withCoercionConfig(LogicalType.Textual, strings -> strings
          .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
      .build();

  private Json() {}

  /**
   * Returns the mapper.
   *
   * @return the shared mapper
   */
  public static JsonMapper mapper() {
    return MAPPER;
  }

  /**
   * Returns a value's JSON tree.
   *
   * @param value a model object, collection, map, string, number or null
   * @return the tree; the missing node for null
   */
  public static JsonNode tree(Object value) {
    return value == null ? MAPPER.missingNode() : MAPPER.valueToTree(value);
  }

  /**
   * Returns a value as plain Java JSON values, unwrapping whatever fabric8 decoded free-form JSON
   * into.
   *
   * @param value a model value, or null
   * @return a {@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean}, or null
   */
  public static Object plain(Object value) {
    return value == null ? null : MAPPER.convertValue(value, Object.class);
  }

  /**
   * Copies a model object deeply through its JSON form, so that the copy shares nothing with the
   * original (as Go's assignment of a struct value does for the parts strategies touch).
   *
   * @param value the object, may be null
   * @param <T> its type
   * @return the copy, or null
   */
  @SuppressWarnings("unchecked")
  public static <T> T copy(T value) {
    return value == null ? null : (T) MAPPER.convertValue(value, value.getClass());
  }

  /**
   * Returns the number of bytes of a value written as compact JSON.
   *
   * @param value the value
   * @return its size
   */
  public static int size(Object value) {
    return MAPPER.writeValueAsBytes(value).length;
  }

  /** Reads an opaque value as plain JSON. */
  static final class PlainValue extends ValueDeserializer<Object> {
    @Override
    public Object deserialize(JsonParser parser, DeserializationContext context) {
      return context.readValue(parser, Object.class);
    }
  }

  /** Mixin: a configuration's parameters as plain JSON. */
  abstract static class OpaqueParameters {
    @JsonDeserialize(using = PlainValue.class)
    abstract void setParameters(Object parameters);
  }

  /** Mixin: a device status's data as plain JSON. */
  abstract static class StatusData {
    @JsonDeserialize(using = PlainValue.class)
    abstract void setData(Object data);
  }
}
