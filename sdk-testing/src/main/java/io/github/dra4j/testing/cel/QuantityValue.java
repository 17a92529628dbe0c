package io.github.dra4j.testing.cel;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
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

  static final String FORMAT_ERROR =
      "quantities must match the regular expression"
          + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  static final String SUFFIX_ERROR = "unable to parse quantity's suffix";
  private static final String SUFFIX_CHARS = "eEinumkKMGTP";
  private static final int MAX_FAST_DIGITS = 18;
  private static final int NANO_SCALE = -9;
  /** Exponents beyond this are refused so that a hostile value cannot make comparisons hang. */
  private static final int MAX_EXPONENT = 1000;
  private static final BigDecimal MAX_BINARY = BigDecimal.valueOf(Long.MAX_VALUE);

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
    Objects.requireNonNull(text, "text");
    if (text.isEmpty()) {
      throw new IllegalArgumentException(FORMAT_ERROR);
    }
    if (text.equals("0")) {
      return ZERO;
    }
    QuantityText parts = QuantityText.split(text);
    Suffix suffix = Suffix.interpret(parts.suffix);
    Optional<QuantityValue> fast = fastPath(parts, suffix);
    if (fast.isPresent()) {
      return fast.get();
    }
    return slowPath(parts, suffix);
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

  private static Optional<QuantityValue> fastPath(QuantityText parts, Suffix suffix) {
    int scale;
    long mantissa = 1;
    int precision;
    if (suffix.base == 10) {
      scale = suffix.exponent;
      precision = MAX_FAST_DIGITS - (parts.integer.length() + parts.fraction.length());
    } else {
      scale = 0;
      if (suffix.exponent >= 0 && parts.fraction.isEmpty()) {
        mantissa = 1L << suffix.exponent;
        precision =
            15 - parts.integer.length() - (int) ((float) suffix.exponent * 3 / 10) - 1;
      } else {
        precision = -1;
      }
    }
    if (precision < 0) {
      return Optional.empty();
    }
    scale -= parts.fraction.length();
    if (scale < NANO_SCALE) {
      return Optional.empty();
    }
    long digits = Long.parseLong(parts.integer + parts.fraction);
    long result;
    try {
      result = Math.multiplyExact(digits, mantissa);
    } catch (ArithmeticException overflow) {
      return Optional.empty();
    }
    return Optional.of(
        new QuantityValue(parts.positive ? result : -result, scale, null, suffix.base == 2));
  }

  private static QuantityValue slowPath(QuantityText parts, Suffix suffix) {
    BigDecimal amount = new BigDecimal(parts.integer + "." + parts.fraction + "0");
    if (suffix.base == 10) {
      amount = amount.scaleByPowerOfTen(suffix.exponent);
    } else {
      amount = amount.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(suffix.exponent)));
    }
    if (amount.signum() != 0 && amount.scale() > -NANO_SCALE) {
      amount = amount.setScale(-NANO_SCALE, RoundingMode.UP);
    }
    if (suffix.base == 2 && amount.compareTo(MAX_BINARY) > 0) {
      amount = MAX_BINARY;
    }
    boolean binary = suffix.base == 2 && amount.compareTo(BigDecimal.ONE) >= 0;
    return new QuantityValue(0, 0, parts.positive ? amount : amount.negate(), binary);
  }

  /**
   * Returns true when the value was written with a binary suffix ({@code Ki}, {@code Mi}...), or
   * derives from one by addition; {@link #toKubernetesString()} then prefers binary suffixes.
   */
  public boolean isBinaryFormat() {
    return binary;
  }

  /** Returns true when this value is kept in the 64-bit fast-path form. */
  boolean isFastPath() {
    return decimal == null;
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
      Optional<QuantityValue> fast =
          addFast(fastValue, fastScale, other.fastValue, other.fastScale, format);
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
      Optional<QuantityValue> fast =
          addFast(fastValue, fastScale, -other.fastValue, other.fastScale, format);
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
    return o instanceof QuantityValue && compareTo((QuantityValue) o) == 0;
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

  /** The three parts of a quantity string: sign, digits before and after the dot, suffix. */
  private static final class QuantityText {
    final boolean positive;
    final String integer;
    final String fraction;
    final String suffix;

    private QuantityText(boolean positive, String integer, String fraction, String suffix) {
      this.positive = positive;
      this.integer = integer;
      this.fraction = fraction;
      this.suffix = suffix;
    }

    static QuantityText split(String s) {
      int pos = 0;
      int end = s.length();
      boolean positive = true;
      if (s.charAt(0) == '-') {
        positive = false;
        pos++;
      } else if (s.charAt(0) == '+') {
        pos++;
      }
      while (pos < end && s.charAt(pos) == '0') {
        pos++;
      }
      if (pos >= end) {
        return new QuantityText(positive, "0", "", "");
      }
      int start = pos;
      while (pos < end && isDigit(s.charAt(pos))) {
        pos++;
      }
      String integer = pos == start ? "0" : s.substring(start, pos);
      String fraction = "";
      if (pos < end && s.charAt(pos) == '.') {
        pos++;
        int fractionStart = pos;
        while (pos < end && isDigit(s.charAt(pos))) {
          pos++;
        }
        fraction = s.substring(fractionStart, pos);
      }
      int suffixStart = pos;
      while (pos < end && SUFFIX_CHARS.indexOf(s.charAt(pos)) >= 0) {
        pos++;
      }
      if (pos < end && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
        pos++;
      }
      while (pos < end && isDigit(s.charAt(pos))) {
        pos++;
      }
      if (pos < end) {
        throw new IllegalArgumentException(FORMAT_ERROR);
      }
      return new QuantityText(positive, integer, fraction, s.substring(suffixStart));
    }

    private static boolean isDigit(char c) {
      return c >= '0' && c <= '9';
    }
  }

  /** An interpreted suffix: value = number * base^exponent. */
  private static final class Suffix {
    final int base;
    final int exponent;

    private Suffix(int base, int exponent) {
      this.base = base;
      this.exponent = exponent;
    }

    static Suffix interpret(String suffix) {
      switch (suffix) {
        case "":
          return new Suffix(10, 0);
        case "n":
          return new Suffix(10, -9);
        case "u":
          return new Suffix(10, -6);
        case "m":
          return new Suffix(10, -3);
        case "k":
          return new Suffix(10, 3);
        case "M":
          return new Suffix(10, 6);
        case "G":
          return new Suffix(10, 9);
        case "T":
          return new Suffix(10, 12);
        case "P":
          return new Suffix(10, 15);
        case "E":
          return new Suffix(10, 18);
        case "Ki":
          return new Suffix(2, 10);
        case "Mi":
          return new Suffix(2, 20);
        case "Gi":
          return new Suffix(2, 30);
        case "Ti":
          return new Suffix(2, 40);
        case "Pi":
          return new Suffix(2, 50);
        case "Ei":
          return new Suffix(2, 60);
        default:
          return exponentSuffix(suffix);
      }
    }

    private static Suffix exponentSuffix(String suffix) {
      if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
        try {
          long exponent = Long.parseLong(suffix.substring(1));
          if (Math.abs(exponent) <= MAX_EXPONENT) {
            return new Suffix(10, (int) exponent);
          }
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(SUFFIX_ERROR, e);
        }
      }
      throw new IllegalArgumentException(SUFFIX_ERROR);
    }
  }
}
