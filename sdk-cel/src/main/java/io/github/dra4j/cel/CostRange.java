package io.github.dra4j.cel;

/**
 * A range of unsigned 64-bit numbers, cel-go's {@code SizeEstimate} and {@code CostEstimate} in
 * one: the minimum and maximum of a size (string length, list or map entry count) or of a cost,
 * held in {@code long}s read as unsigned. Sums and products saturate at 2<sup>64</sup>-1 instead
 * of overflowing; scaling by a factor rounds up; all as cel-go computes them. Immutable.
 *
 * @param min the smallest value, unsigned
 * @param max the largest value, unsigned
 */
record CostRange(long min, long max) {

  /** 2<sup>64</sup>-1, the largest unsigned value, which cel-go saturates at. */
  static final long UNSIGNED_MAX = -1L;

  /** 2<sup>64</sup> as a double (what Go makes of {@code float64(math.MaxUint64)}). */
  private static final double TWO_TO_64 = 0x1p64;

  private static final double TWO_TO_63 = 0x1p63;

  /** Nothing: zero to zero. */
  static final CostRange ZERO = new CostRange(0, 0);

  /** Unknown: zero to the largest unsigned value. */
  static final CostRange UNKNOWN = new CostRange(0, UNSIGNED_MAX);

  /** Returns the range holding exactly {@code value}. */
  static CostRange fixed(long value) {
    return new CostRange(value, value);
  }

  /** Returns the sum, each bound saturating. */
  CostRange add(CostRange other) {
    return new CostRange(addSaturating(min, other.min), addSaturating(max, other.max));
  }

  /** Returns the product, each bound saturating. */
  CostRange multiply(CostRange other) {
    return new CostRange(multiplySaturating(min, other.min), multiplySaturating(max, other.max));
  }

  /** Returns each bound times {@code factor}, rounded up, saturating. */
  CostRange multiplyByFactor(double factor) {
    return new CostRange(multiplyByFactor(min, factor), multiplyByFactor(max, factor));
  }

  /** Returns the smallest range holding both ranges. */
  CostRange union(CostRange other) {
    return new CostRange(
        Long.compareUnsigned(other.min, min) < 0 ? other.min : min,
        Long.compareUnsigned(other.max, max) > 0 ? other.max : max);
  }

  /** Returns the maximum, or {@link Long#MAX_VALUE} when it does not fit a signed long. */
  long maxOrLongMax() {
    return max < 0 ? Long.MAX_VALUE : max;
  }

  /** Adds two unsigned values; the largest unsigned value when the sum would not fit. */
  static long addSaturating(long x, long y) {
    if (y != 0 && Long.compareUnsigned(x, UNSIGNED_MAX - y) > 0) {
      return UNSIGNED_MAX;
    }
    return x + y;
  }

  /** Multiplies two unsigned values; the largest unsigned value when the product would not fit. */
  static long multiplySaturating(long x, long y) {
    if (y != 0 && Long.compareUnsigned(x, Long.divideUnsigned(UNSIGNED_MAX, y)) > 0) {
      return UNSIGNED_MAX;
    }
    return x * y;
  }

  /** Multiplies an unsigned value by a factor in doubles, rounding up, as cel-go does. */
  static long multiplyByFactor(long x, double factor) {
    double value = toDouble(x);
    if (value > 0 && factor > 0 && value > TWO_TO_64 / factor) {
      return UNSIGNED_MAX;
    }
    double ceil = Math.ceil(value * factor);
    if (ceil >= TWO_TO_64) {
      return UNSIGNED_MAX;
    }
    return fromDouble(ceil);
  }

  /** Returns the unsigned value as the nearest double, like Go's {@code float64(uint64)}. */
  static double toDouble(long unsigned) {
    if (unsigned >= 0) {
      return unsigned;
    }
    // halve (keeping the lowest bit so that rounding stays correct), convert, double
    return ((unsigned >>> 1) | (unsigned & 1)) * 2.0;
  }

  /** Converts a non-negative double below 2^64 to an unsigned value, truncating. */
  static long fromDouble(double value) {
    if (value < TWO_TO_63) {
      return (long) value;
    }
    return (long) (value - TWO_TO_63) | Long.MIN_VALUE;
  }

  @Override
  public String toString() {
    return "[" + Long.toUnsignedString(min) + ", " + Long.toUnsignedString(max) + "]";
  }
}
