package io.github.dra4j.lifecycle.internal.store;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a driver's state record into the JSON the checkpoint keeps, and back. Reading is lenient
 * (unknown fields are ignored), so a state written by a newer version of the driver that added a
 * field still reads. Immutable; thread-safe.
 *
 * @param <S> the driver's state record
 */
public final class StateCodec<S> {

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private final Class<S> type;

  /**
   * A codec for one type.
   *
   * @param type the driver's state record type; {@link Void} for none
   */
  public StateCodec(Class<S> type) {
    this.type = type;
  }

  /**
   * The stored form.
   *
   * @param state the record, or null
   * @return its JSON tree, or null for a null record
   * @throws IllegalArgumentException naming the type when the record cannot be written as JSON
   */
  public JsonNode encode(S state) {
    if (state == null) {
      return null;
    }
    try {
      return MAPPER.valueToTree(state);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("driver state " + type.getName()
          + " cannot be stored as JSON: " + e.getMessage(), e);
    }
  }

  /**
   * The record again.
   *
   * @param json the stored tree, or null
   * @param where names the checkpoint entry in the error
   * @return the record, or null for null
   * @throws IllegalStateException naming the entry and the type when the JSON does not read as the
   *     type
   */
  public S decode(JsonNode json, String where) {
    if (json == null || json.isNull() || type == Void.class) {
      return null;
    }
    try {
      return MAPPER.treeToValue(json, type);
    } catch (RuntimeException e) {
      throw new IllegalStateException(where + ": stored driver state does not read as "
          + type.getName() + ": " + e.getMessage(), e);
    }
  }
}
