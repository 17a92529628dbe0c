package io.github.dra4j.resourceapi.internal.field;

import io.github.dra4j.core.name.GoStrings;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Prints a refused value the way the API server's messages show it. Since Kubernetes 1.34 Go's
 * {@code field.Error.ErrorBody} prints a plain {@code string} with {@code %q} ({@link #quote}),
 * {@code int64}/{@code int32}/{@code float}/{@code bool} with {@code %v}, and every other value
 * (string types such as an operator or an effect, {@code int}, slices, maps, structs, nil) as
 * {@code json.Marshal} renders it. Strings given to {@link #print} are plain Go strings; wrap a
 * typed enum value with {@link #typed} and a structure with {@link #json} or {@link Struct}.
 * Stateless.
 */
public final class GoValues {

  /**
   * A value already printed; shown as it is.
   *
   * @param text the printed value
   */
  public record Raw(String text) {

    /**
     * Checks the text.
     *
     * @param text not null
     */
    public Raw {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * A Go struct for {@link #json}: its fields in declaration order, named as {@code json.Marshal}
   * names them (the json tag, or the Go field name for internal types without tags). Unlike a
   * {@link Map}, whose keys JSON sorts, the order is kept.
   *
   * @param fields the fields in order; values as {@link #json} accepts them
   */
  public record Struct(Map<String, Object> fields) {

    /**
     * Copies the fields, keeping their order.
     *
     * @param fields not null
     */
    public Struct {
      fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }
  }

  private GoValues() {}

  /**
   * Prints a value as {@code ErrorBody} does.
   *
   * @param value a String (a plain Go string), Integer/Long/Short/Byte/Double/Float/Boolean,
   *     {@link Raw}, a collection, a map, a {@link Struct}, or null
   * @return the printed value
   */
  public static String print(Object value) {
    if (value instanceof Raw raw) {
      return raw.text();
    }
    if (value instanceof String text) {
      return quote(text);
    }
    if (value instanceof Boolean || value instanceof Integer || value instanceof Long
        || value instanceof Short || value instanceof Byte) {
      return value.toString();
    }
    if (value instanceof Double || value instanceof Float) {
      return goFloat(((Number) value).doubleValue(), false);
    }
    return json(value).text();
  }

  /**
   * A value of a Go string type (an operator, an effect, a condition status): {@code ErrorBody}
   * prints it with {@code json.Marshal}, which differs from {@code %q} only for control, HTML and
   * non-ASCII line separator characters.
   *
   * @param value the string
   * @return the printed value
   */
  public static Raw typed(String value) {
    return new Raw(jsonString(value));
  }

  /**
   * Renders a value as Go's {@code json.Marshal} does: null as {@code null}, strings with JSON
   * escapes (HTML characters as <code>&#92;u003c</code>), numbers, booleans, collections as
   * arrays, maps as objects with sorted keys, {@link Struct}s as objects in field order, {@link
   * Raw} as given.
   *
   * @param value the value
   * @return the JSON text
   */
  public static Raw json(Object value) {
    StringBuilder out = new StringBuilder();
    appendJson(out, value);
    return new Raw(out.toString());
  }

  /**
   * Prints a list of strings as Go's {@code %#v} prints a {@code []string}: {@code
   * []string{"a", "b"}}, or {@code []string(nil)} for an empty list. Since Kubernetes 1.34 field
   * errors print lists as JSON ({@link #print}); this is for messages that format a list
   * themselves with {@code %#v}.
   *
   * @param items the items, printed with {@link #quote}
   * @return the printed list
   */
  public static String stringSlice(Collection<?> items) {
    if (items.isEmpty()) {
      return "[]string(nil)";
    }
    StringBuilder out = new StringBuilder("[]string{");
    boolean first = true;
    for (Object item : items) {
      if (!first) {
        out.append(", ");
      }
      first = false;
      out.append(quote(String.valueOf(item)));
    }
    return out.append('}').toString();
  }

  /**
   * Quotes a string as Go's {@code strconv.Quote} does ({@link GoStrings#quote}).
   *
   * @param text the string
   * @return the quoted string
   */
  public static String quote(String text) {
    return GoStrings.quote(text);
  }

  /**
   * A string as {@code json.Marshal} writes it (with HTML escaping, as Go's default encoder).
   *
   * @param text the string
   * @return the JSON string literal
   */
  public static String jsonString(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2);
    appendJsonString(out, text);
    return out.toString();
  }

  private static void appendJson(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Raw raw) {
      out.append(raw.text());
    } else if (value instanceof String text) {
      appendJsonString(out, text);
    } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long
        || value instanceof Short || value instanceof Byte
        || value instanceof java.math.BigInteger) {
      out.append(value);
    } else if (value instanceof Double || value instanceof Float) {
      out.append(goFloat(((Number) value).doubleValue(), true));
    } else if (value instanceof BigDecimal decimal) {
      out.append(decimal.toPlainString());
    } else if (value instanceof Struct struct) {
      appendObject(out, struct.fields());
    } else if (value instanceof Map<?, ?> map) {
      Map<String, Object> sorted = new java.util.TreeMap<>();
      map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
      appendObject(out, sorted);
    } else if (value instanceof Collection<?> items) {
      out.append('[');
      boolean first = true;
      for (Object item : items) {
        out.append(first ? "" : ",");
        first = false;
        appendJson(out, item);
      }
      out.append(']');
    } else if (value instanceof Object[] array) {
      appendJson(out, List.of(array));
    } else {
      appendJsonString(out, value.toString());
    }
  }

  private static void appendObject(StringBuilder out, Map<String, Object> fields) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<String, Object> field : fields.entrySet()) {
      out.append(first ? "" : ",");
      first = false;
      appendJsonString(out, field.getKey());
      out.append(':');
      appendJson(out, field.getValue());
    }
    out.append('}');
  }

  private static void appendJsonString(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
              && Character.isLowSurrogate(text.charAt(i + 1))) {
            out.append(c).append(text.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            out.append("\\ufffd");
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * A float64 in its shortest form, as {@code json.Marshal} (plain between 1e-6 and 1e21, else an
   * exponent like {@code 1e+21} or {@code 1e-7}) or {@code %v} (exponent form from 1e+06 and
   * below 1e-04, with at least two exponent digits) prints it.
   */
  private static String goFloat(double value, boolean json) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return value > 0 ? "+Inf" : value < 0 ? "-Inf" : "NaN";
    }
    if (value == 0) {
      return "0";
    }
    BigDecimal exact = new BigDecimal(Double.toString(value)).stripTrailingZeros();
    String digits = exact.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - exact.scale();
    boolean plain = json ? Math.abs(value) >= 1e-6 && Math.abs(value) < 1e21
        : exponent >= -4 && exponent < 6;
    String sign = value < 0 ? "-" : "";
    if (plain) {
      return sign + exact.abs().toPlainString();
    }
    String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
    int magnitude = Math.abs(exponent);
    String expDigits = (!json && magnitude < 10) || (json && exponent < 0 && magnitude < 10)
        ? (json ? "" : "0") + magnitude : Integer.toString(magnitude);
    return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + expDigits;
  }
}
