package io.github.dra4j.core.quantity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An exact Kubernetes resource quantity, the value behind CEL's {@code kubernetes.Quantity} type
 * and behind device capacities and counters in the allocator.
 *
 * <p>Parsing follows the Kubernetes quantity grammar ({@code 1.5Gi}, {@code 100m}, {@code 1e3})
 * including its error texts, its rounding up to nano precision and its cap of binary values at
 * 2^63-1. Like Kubernetes, a value is kept either in a 64-bit "fast path" form (integer times a
 * power of ten) or as an arbitrary-precision decimal; {@link #asLong()} only succeeds on the fast
 * path, which reproduces the observable behaviour of CEL's {@code isInteger()} and {@code
 * asInteger()}. Comparison and arithmetic are always exact.
 *
 * <p>Instances are immutable and safe to share between threads. {@link #equals} compares the
 * numeric value ({@code 1Ki} equals {@code 1024}).
 */
public final class QuantityValue implements Comparable<QuantityValue> {

  private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  private static final BigInteger KIBI = BigInteger.valueOf(1024);

  /** Zero on the fast path. */
  public static final QuantityValue ZERO = new QuantityValue(0, 0, null, false);

  private final long fastValue;
  private final int fastScale;
  private final BigDecimal decimal;
  private final boolean binary;

  private QuantityValue(long fastValue, int fastScale, BigDecimal decimal, boolean binary) {
    this.fastValue = fastValue;
    this.fastScale = fastScale;
    this.decimal = decimal;
    this.binary = binary;
  }

  /** Returns the fast-path value {@code value * 10^scale}. */
  static QuantityValue fast(long value, int scale, boolean binary) {
    return new QuantityValue(value, scale, null, binary);
  }

  /**
   * Parses a quantity string.
   *
   * @param text the quantity as written in an object or an expression, e.g. {@code 80Gi}
   * @return the exact value
   * @throws IllegalArgumentException with the Kubernetes error text ({@code quantities must match
   *     the regular expression ...} or {@code unable to parse quantity's suffix}) when {@code text}
   *     is not a quantity
   */
  public static QuantityValue parse(String text) {
    return QuantityParser.parse(text);
  }

  /**
   * Parses a quantity, returning empty instead of throwing when the text is not a quantity.
   *
   * @param text the candidate text
   * @return the value, or empty when {@link #parse} would fail
   */
  public static Optional<QuantityValue> tryParse(String text) {
    try {
      return Optional.of(parse(text));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /**
   * Returns the quantity for a plain integer, on the fast path.
   *
   * @param value the integer
   * @return the quantity equal to {@code value}
   */
  public static QuantityValue ofLong(long value) {
    return new QuantityValue(value, 0, null, false);
  }

  /**
   * Returns the quantity for an exact decimal (not on the fast path, so {@link #asLong()} is
   * empty).
   *
   * @param value the exact value
   * @param binaryFormat whether {@link #toKubernetesString()} should prefer binary suffixes
   * @return the quantity equal to {@code value}
   */
  public static QuantityValue ofDecimal(BigDecimal value, boolean binaryFormat) {
    return new QuantityValue(0, 0, Objects.requireNonNull(value, "value"), binaryFormat);
  }

  /**
   * Returns true when the value was written with a binary suffix ({@code Ki}, {@code Mi}...), or
   * derives from one by addition; {@link #toKubernetesString()} then prefers binary suffixes.
   *
   * @return true if {@link #toKubernetesString()} prefers binary suffixes ({@code 1Gi}); false if
   *     it writes the value in decimal form ({@code 1G}, {@code 100m})
   */
  public boolean isBinaryFormat() {
    return binary;
  }

  /**
   * Returns the value as a 64-bit integer when Kubernetes would: only on the fast path, only when
   * the value has no negative decimal scale and fits into 64 bits. This is CEL's {@code
   * asInteger()}.
   *
   * @return the integer, or empty when {@code asInteger()} would fail
   */
  public OptionalLong asLong() {
    if (decimal != null) {
      return OptionalLong.empty();
    }
    if (fastScale == 0) {
      return OptionalLong.of(fastValue);
    }
    if (fastScale < 0) {
      return OptionalLong.empty();
    }
    return scaleUp(fastValue, fastScale);
  }

  private static OptionalLong scaleUp(long value, int scale) {
    long result = value;
    for (int i = 0; i < scale; i++) {
      try {
        result = Math.multiplyExact(result, 10L);
      } catch (ArithmeticException overflow) {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.of(result);
  }

  /**
   * Returns the exact numeric value.
   *
   * @return the value as a decimal
   */
  public BigDecimal toBigDecimal() {
    return decimal != null ? decimal : BigDecimal.valueOf(fastValue, -fastScale);
  }

  /**
   * Returns a float approximation, {@code ±Infinity} when out of range. This is CEL's {@code
   * asApproximateFloat()}.
   *
   * @return the approximate value
   */
  public double asApproximateDouble() {
    return toBigDecimal().doubleValue();
  }

  /**
   * Returns the sign of the value.
   *
   * @return -1, 0 or 1
   */
  public int signum() {
    return decimal != null ? decimal.signum() : Long.signum(fastValue);
  }

  /**
   * Adds another quantity exactly. The result stays on the fast path only when both operands are
   * on it and no 64-bit overflow happens (like Kubernetes).
   *
   * @param other the quantity to add
   * @return the sum
   */
  public QuantityValue add(QuantityValue other) {
    boolean format = signum() == 0 ? other.binary : binary;
    if (decimal == null && other.decimal == null) {
      Optional<QuantityValue> fast = addFast(fastValue, fastScale, other.fastValue, other.fastScale,
          format);
      if (fast.isPresent()) {
        return fast.get();
      }
    }
    return new QuantityValue(0, 0, toBigDecimal().add(other.toBigDecimal()), format);
  }

  /**
   * Subtracts another quantity exactly, with the same fast-path rule as {@link #add}.
   *
   * @param other the quantity to subtract
   * @return the difference
   */
  public QuantityValue subtract(QuantityValue other) {
    boolean format = signum() == 0 ? other.binary : binary;
    if (decimal == null && other.decimal == null && other.fastValue != Long.MIN_VALUE) {
      Optional<QuantityValue> fast = addFast(fastValue, fastScale, -other.fastValue,
          other.fastScale, format);
      if (fast.isPresent()) {
        return fast.get();
      }
    }
    return new QuantityValue(0, 0, toBigDecimal().subtract(other.toBigDecimal()), format);
  }

  private static Optional<QuantityValue> addFast(
      long a, int aScale, long b, int bScale, boolean binary) {
    if (b == 0) {
      return Optional.of(new QuantityValue(a, aScale, null, binary));
    }
    if (a == 0) {
      return Optional.of(new QuantityValue(b, bScale, null, binary));
    }
    try {
      if (aScale == bScale) {
        return Optional.of(new QuantityValue(Math.addExact(a, b), aScale, null, binary));
      }
      long sum;
      int scale;
      if (aScale > bScale) {
        OptionalLong aligned = scaleUp(a, aScale - bScale);
        if (aligned.isEmpty()) {
          return Optional.empty();
        }
        sum = Math.addExact(aligned.getAsLong(), b);
        scale = bScale;
      } else {
        OptionalLong aligned = scaleUp(b, bScale - aScale);
        if (aligned.isEmpty()) {
          return Optional.empty();
        }
        sum = Math.addExact(a, aligned.getAsLong());
        scale = aScale;
      }
      return Optional.of(new QuantityValue(sum, scale, null, binary));
    } catch (ArithmeticException overflow) {
      return Optional.empty();
    }
  }

  @Override
  public int compareTo(QuantityValue other) {
    if (decimal == null && other.decimal == null && fastScale == other.fastScale) {
      return Long.compare(fastValue, other.fastValue);
    }
    return toBigDecimal().compareTo(other.toBigDecimal());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QuantityValue quantityValue && compareTo(quantityValue) == 0;
  }

  @Override
  public int hashCode() {
    BigDecimal value = toBigDecimal();
    return value.signum() == 0 ? 0 : value.stripTrailingZeros().hashCode();
  }

  /**
   * Returns the value as Kubernetes would print it: with a binary suffix ({@code 2Gi}) for a
   * value that was written with one and is a whole multiple of 1024, otherwise with the largest
   * decimal suffix that keeps the number whole ({@code 2k}, {@code 1500}, {@code 500m}).
   *
   * @return the canonical text
   */
  public String toKubernetesString() {
    BigDecimal value = toBigDecimal().stripTrailingZeros();
    if (value.signum() == 0) {
      return "0";
    }
    if (binary && value.scale() <= 0 && value.abs().compareTo(new BigDecimal(KIBI)) >= 0) {
      BigInteger mantissa = value.toBigIntegerExact();
      int power = 0;
      while (power < BINARY_SUFFIXES.length - 1 && mantissa.mod(KIBI).signum() == 0) {
        mantissa = mantissa.divide(KIBI);
        power++;
      }
      return mantissa + BINARY_SUFFIXES[power];
    }
    String[] decimalSuffixes = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    for (int i = decimalSuffixes.length - 1; i >= 0; i--) {
      BigDecimal mantissa = value.scaleByPowerOfTen(-(i * 3 - 9));
      if (mantissa.stripTrailingZeros().scale() <= 0) {
        return mantissa.toBigIntegerExact() + decimalSuffixes[i];
      }
    }
    return value.toPlainString();
  }

  /** Returns the exact value in plain decimal notation, e.g. {@code 85899345920}. */
  @Override
  public String toString() {
    return toBigDecimal().stripTrailingZeros().toPlainString();
  }
}
