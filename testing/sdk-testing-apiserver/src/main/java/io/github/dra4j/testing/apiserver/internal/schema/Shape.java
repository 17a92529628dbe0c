package io.github.dra4j.testing.apiserver.internal.schema;

import java.lang.reflect.Type;

/** How a Java type of the fabric8 model appears in JSON. Immutable. */
sealed interface Shape {

  /**
   * An object with named properties: a fabric8 model class.
   *
   * @param type the model class
   */
  record ObjectShape(Class<?> type) implements Shape {}

  /**
   * A JSON array ({@code List} or array in Java).
   *
   * @param element the element type
   */
  record ArrayShape(Type element) implements Shape {}

  /**
   * A JSON object with arbitrary keys ({@code Map<String, V>} in Java).
   *
   * @param value the value type
   */
  record MapShape(Type value) implements Shape {}

  /**
   * A single value: a string, number, boolean, enum, a class with its own deserializer, or an
   * untyped value ({@code Object}) that may hold anything.
   *
   * @param type the Java class
   */
  record ValueShape(Class<?> type) implements Shape {}
}
