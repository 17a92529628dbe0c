package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.Quantity;
import io.github.dra4j.core.quantity.QuantityValue;

/** Conversion between fabric8 quantities and exact {@link QuantityValue}s. Stateless. */
final class Quantities {

  private Quantities() {}

  /**
   * Parses a fabric8 quantity.
   *
   * @param quantity the quantity from an object
   * @param field what the value is, for the error, e.g. {@code capacity memory}
   * @throws IllegalArgumentException naming the field and the value when it is missing or not a
   *     quantity
   */
  static QuantityValue parse(Quantity quantity, String field) {
    if (quantity == null) {
      throw new IllegalArgumentException(field + ": missing value");
    }
    String text = quantity.toString();
    try {
      return QuantityValue.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": value \"" + text + "\": " + e.getMessage(), e);
    }
  }

  /** Returns the fabric8 quantity for an exact value, in Kubernetes' canonical text. */
  static Quantity toFabric8(QuantityValue value) {
    return new Quantity(value.toKubernetesString());
  }
}
