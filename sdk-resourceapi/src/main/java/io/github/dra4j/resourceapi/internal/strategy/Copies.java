package io.github.dra4j.resourceapi.internal.strategy;

import tools.jackson.databind.json.JsonMapper;

/** Deep copies of fabric8 model objects through their JSON form. */
final class Copies {

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  private Copies() {}

  /**
   * Copies a model object deeply, so the copy shares nothing with the original (as Go's value
   * assignment of a struct does for the parts the strategies touch).
   *
   * @param value the object, may be null
   * @param <T> its type
   * @return the copy, or null
   */
  @SuppressWarnings("unchecked")
  static <T> T deepCopy(T value) {
    if (value == null) {
      return null;
    }
    return (T) MAPPER.convertValue(value, value.getClass());
  }
}
