package io.github.dra4j.core.quantity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.Optional;

/**
 * Parses Kubernetes quantity strings the way apimachinery's {@code ParseQuantity} does: the same
 * grammar and error texts, the 64-bit "fast path" when the digits fit, otherwise an exact decimal
 * rounded up in magnitude to nano precision, binary values capped at 2^63-1. Stateless.
 *
 * <p>Two bounds apimachinery does not have, so that a hostile value costs no more than a normal
 * one: exponents beyond {@value #MAX_EXPONENT} in magnitude, and numbers of more than {@value
 * #MAX_DIGITS} digits. apimachinery counts digits only to choose its 64-bit fast path (18) and
 * reads any number of them into a big decimal, bounded only by the size of the request; here
 * reading a million digits would take minutes (the decimal conversion is quadratic). The digit
 * bound is Jackson's for a JSON number (its {@code maxNumberLength}), so a quantity may have as
 * many digits as a number the same parsers accept.
 */
final class QuantityParser {

  static final String FORMAT_ERROR = "quantities must match the regular expression"
      + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  static final String SUFFIX_ERROR = "unable to parse quantity's suffix";
  private static final String SUFFIX_CHARS = "eEinumkKMGTP";
  private static final int MAX_FAST_DIGITS = 18;
  private static final int NANO_SCALE = -9;
  /** Exponents beyond this are refused so that a hostile value cannot make comparisons hang. */
  private static final int MAX_EXPONENT = 1000;
  private static final BigDecimal MAX_BINARY = BigDecimal.valueOf(Long.MAX_VALUE);
  /** Numbers with more digits than this (before and after the point) are refused. */
  static final int MAX_DIGITS = 1000;

  private QuantityParser() {}

  static QuantityValue parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.isEmpty()) {
      throw new IllegalArgumentException(FORMAT_ERROR);
    }
    if (text.equals("0")) {
      return QuantityValue.ZERO;
    }
    QuantityText parts = QuantityText.split(text);
    Suffix suffix = Suffix.interpret(parts.suffix);
    Optional<QuantityValue> fast = fastPath(parts, suffix);
    if (fast.isPresent()) {
      return fast.get();
    }
    return slowPath(parts, suffix);
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
        precision = 15 - parts.integer.length() - (int) ((float) suffix.exponent * 3 / 10) - 1;
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
        QuantityValue.fast(parts.positive ? result : -result, scale, suffix.base == 2));
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
    return QuantityValue.ofDecimal(parts.positive ? amount : amount.negate(), binary);
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
      int digits = (integer.equals("0") ? 0 : integer.length()) + fraction.length();
      if (digits > MAX_DIGITS) {
        throw new IllegalArgumentException("quantities must have at most " + MAX_DIGITS
            + " digits, got " + digits);
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
      return switch (suffix) {
        case "" -> new Suffix(10, 0);
        case "n" -> new Suffix(10, -9);
        case "u" -> new Suffix(10, -6);
        case "m" -> new Suffix(10, -3);
        case "k" -> new Suffix(10, 3);
        case "M" -> new Suffix(10, 6);
        case "G" -> new Suffix(10, 9);
        case "T" -> new Suffix(10, 12);
        case "P" -> new Suffix(10, 15);
        case "E" -> new Suffix(10, 18);
        case "Ki" -> new Suffix(2, 10);
        case "Mi" -> new Suffix(2, 20);
        case "Gi" -> new Suffix(2, 30);
        case "Ti" -> new Suffix(2, 40);
        case "Pi" -> new Suffix(2, 50);
        case "Ei" -> new Suffix(2, 60);
        default -> exponentSuffix(suffix);
      };
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
