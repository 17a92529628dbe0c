package io.github.dra4j.resourceapi.internal.meta;

import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * metav1.Time as the validation sees it: fabric8 keeps it as an RFC 3339 string, Go as a time
 * with second precision (its JSON form), compared semantically and printed by {@code
 * json.Marshal} as a UTC RFC 3339 string or {@code null}. Stateless.
 */
final class Timestamps {

  private static final Instant ZERO = Instant.parse("0001-01-01T00:00:00Z");
  private static final DateTimeFormatter RFC3339 = DateTimeFormatter
      .ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private Timestamps() {}

  /** Whether the time is Go's zero time: absent, empty or 0001-01-01T00:00:00Z. */
  static boolean isZero(String time) {
    if (time == null || time.isEmpty()) {
      return true;
    }
    Instant instant = parse(time);
    return instant != null && instant.equals(ZERO);
  }

  /** Semantic equality of two times (absent equals zero; unparseable ones compared as text). */
  static boolean equal(String a, String b) {
    if (isZero(a) || isZero(b)) {
      return isZero(a) && isZero(b);
    }
    Instant left = parse(a);
    Instant right = parse(b);
    return (left != null && right != null) ? left.equals(right) : Objects.equals(a, b);
  }

  /**
   * The time as json.Marshal prints a metav1.Time value: {@code null} when zero, else the UTC
   * RFC 3339 string in seconds.
   */
  static GoValues.Raw print(String time) {
    if (isZero(time)) {
      return new GoValues.Raw("null");
    }
    Instant instant = parse(time);
    return GoValues.typed(instant == null ? time : RFC3339.format(instant));
  }

  private static Instant parse(String time) {
    try {
      return OffsetDateTime.parse(time).toInstant().truncatedTo(ChronoUnit.SECONDS);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
