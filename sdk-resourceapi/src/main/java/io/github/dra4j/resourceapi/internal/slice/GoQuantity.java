package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.Quantity;
import io.github.dra4j.core.quantity.QuantityValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * What the API server's validation does with a quantity: compares it exactly, prints it in
 * canonical form ({@code 1Gi}, {@code 1050m}) and, for the step arithmetic of consumable
 * capacity, reads it as a whole number. Stateless.
 */
final class GoQuantity {

  private static final BigInteger MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private GoQuantity() {}

  /**
   * Reads a fabric8 quantity.
   *
   * @param quantity the quantity, may be null
   * @return its exact value, or null if absent or not a quantity (the server refuses such text
   *     when it decodes the object, before validation)
   */
  static QuantityValue of(Quantity quantity) {
    if (quantity == null || quantity.getAmount() == null) {
      return null;
    }
    String format = quantity.getFormat() == null ? "" : quantity.getFormat();
    return QuantityValue.tryParse(quantity.getAmount() + format).orElse(null);
  }

  /**
   * Prints a quantity as the server's messages show it.
   *
   * @param value the value
   * @return the canonical text
   */
  static String string(QuantityValue value) {
    return value.toKubernetesString();
  }

  /**
   * The value as a 64-bit integer, as the server reads it for the integer step arithmetic: a
   * fraction is rounded away from zero, a value beyond the 64-bit range is held at its bound.
   *
   * @param value the value
   * @return the whole number
   */
  static long int64(QuantityValue value) {
    BigInteger whole = value.toBigDecimal().setScale(0, RoundingMode.UP).toBigIntegerExact();
    if (whole.compareTo(MAX) > 0) {
      return Long.MAX_VALUE;
    }
    if (whole.compareTo(MIN) < 0) {
      return Long.MIN_VALUE;
    }
    return whole.longValueExact();
  }

  /**
   * Tells whether a value is exactly zero or below.
   *
   * @param value the value
   * @return true if not positive
   */
  static boolean notPositive(QuantityValue value) {
    return value.toBigDecimal().compareTo(BigDecimal.ZERO) <= 0;
  }
}
