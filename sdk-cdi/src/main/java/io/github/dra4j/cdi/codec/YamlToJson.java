package io.github.dra4j.cdi.codec;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns decoded YAML values into the JSON the reference library then decodes strictly, with the
 * conversion of its YAML-to-JSON step.
 *
 * <p>Where the spec model has a string, a number or boolean becomes its text: integers in
 * decimal, {@code true}/{@code false}, floats in Go's shortest single-precision {@code %g} form
 * ({@code 1.10} becomes {@code 1.1}, {@code 1e8} becomes {@code 1e+08}). Map keys become text the
 * same way; a null or an unsigned 64-bit key is an error. A null list item of a string or number
 * list becomes {@code ""} or 0, of an object list an empty object, as Go's decoder leaves zero
 * values. A NaN or infinite number where no string belongs is an error (JSON has none); a float
 * with an integral value below 1e21 is written as an integer, as Go's encoder writes it, so
 * {@code major: 1e3} reads as 1000. Keys are sorted, so of two keys differing only in case the
 * one sorting last wins, as in Go. Stateless.
 */
final class YamlToJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final BigDecimal INTEGER_LIMIT = new BigDecimal("1e21");

  private YamlToJson() {}

  /**
   * Converts a decoded value.
   *
   * @param value the value from {@link YamlValues}
   * @param target the model type it will be bound to, e.g. the spec record
   * @return the JSON tree
   * @throws DecodeException for keys or numbers JSON cannot hold
   */
  static JsonNode convert(Object value, Type target) {
    return convert(value, target, "");
  }

  private static JsonNode convert(Object value, Type target, String path) {
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = NODES.objectNode();
      Map<String, Object> sorted = new TreeMap<>(YamlToJson::compareCodePoints);
      map.forEach((key, item) -> sorted.put(keyText(key, path), item));
      sorted.forEach((key, item) -> object.set(key,
          convert(item, memberType(target, key), path.isEmpty() ? key : path + "." + key)));
      return object;
    }
    if (value instanceof List<?> list) {
      ArrayNode array = NODES.arrayNode();
      Type item = typeArgument(target, List.class, 0);
      for (int i = 0; i < list.size(); i++) {
        Object element = list.get(i);
        array.add(element == null ? zero(item) : convert(element, item, path + "[" + i + "]"));
      }
      return array;
    }
    if (target == String.class) {
      // Go's decoder leaves "" for a null string.
      return NODES.stringNode(value == null ? ""
          : value instanceof Double d ? formatFloat32(d) : value.toString());
    }
    return scalar(value, path);
  }

  private static JsonNode scalar(Object value, String path) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof String text) {
      return NODES.stringNode(text);
    }
    if (value instanceof Boolean bool) {
      return NODES.booleanNode(bool);
    }
    if (value instanceof Long number) {
      return NODES.numberNode(number);
    }
    if (value instanceof BigInteger number) {
      return NODES.numberNode(number);
    }
    double number = (Double) value;
    if (Double.isNaN(number) || Double.isInfinite(number)) {
      throw new DecodeException("unsupported value " + formatFloat32(number) + " at "
          + (path.isEmpty() ? "(top level)" : path) + ": JSON has no NaN or infinity");
    }
    BigDecimal exact = new BigDecimal(number);
    if (exact.abs().compareTo(INTEGER_LIMIT) < 0 && exact.stripTrailingZeros().scale() <= 0) {
      return NODES.numberNode(exact.toBigIntegerExact());
    }
    return NODES.numberNode(number);
  }

  /** What Go's decoder leaves for a null list item: the zero value of the item type. */
  private static JsonNode zero(Type item) {
    if (item == String.class) {
      return NODES.stringNode("");
    }
    if (item == Long.class || item == Integer.class) {
      return NODES.numberNode(0L);
    }
    if (item instanceof Class<?> type && type.isRecord()) {
      return NODES.objectNode();
    }
    return NODES.nullNode();
  }

  private static String keyText(Object key, String path) {
    if (key instanceof String text) {
      return text;
    }
    if (key instanceof Long || key instanceof Boolean) {
      return key.toString();
    }
    if (key instanceof Double number) {
      return formatFloat32(number);
    }
    String type = key == null ? "null" : "unsigned 64-bit integer " + key;
    throw new DecodeException("unsupported map key of type " + type + " at "
        + (path.isEmpty() ? "(top level)" : path));
  }

  /** The type of a member: a record component by JSON name (exact, else any case) or map value. */
  private static Type memberType(Type owner, String key) {
    if (owner instanceof Class<?> type && type.isRecord()) {
      RecordComponent match = null;
      for (RecordComponent component : type.getRecordComponents()) {
        String name = jsonName(component);
        if (name.equals(key)) {
          return component.getGenericType();
        }
        if (match == null && name.equalsIgnoreCase(key)) {
          match = component;
        }
      }
      return match == null ? null : match.getGenericType();
    }
    return typeArgument(owner, Map.class, 1);
  }

  private static String jsonName(RecordComponent component) {
    JsonProperty property = component.getAnnotation(JsonProperty.class);
    return property != null && !property.value().isEmpty() ? property.value()
        : component.getName();
  }

  private static Type typeArgument(Type type, Class<?> raw, int index) {
    if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == raw) {
      return parameterized.getActualTypeArguments()[index];
    }
    return null;
  }

  /**
   * Go's {@code strconv.FormatFloat(v, 'g', -1, 32)}: the shortest decimal that reads back as the
   * same single-precision float, in exponent form below 1e-4 and from 1e6 on.
   */
  static String formatFloat32(double value) {
    float f = (float) value;
    if (Float.isNaN(f)) {
      return "NaN";
    }
    if (Float.isInfinite(f)) {
      return f > 0 ? "+Inf" : "-Inf";
    }
    String sign = f < 0 || (f == 0 && 1 / f < 0) ? "-" : "";
    if (f == 0) {
      return sign + "0";
    }
    BigDecimal exact = new BigDecimal(Math.abs(f));
    BigDecimal shortest = exact;
    for (int precision = 1; precision <= 9; precision++) {
      shortest = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      if (shortest.floatValue() == Math.abs(f)) {
        break;
      }
    }
    shortest = shortest.stripTrailingZeros();
    String digits = shortest.unscaledValue().toString();
    int exponent = digits.length() - 1 - shortest.scale();
    if (exponent < -4 || exponent >= 6) {
      String mantissa = digits.length() == 1 ? digits
          : digits.charAt(0) + "." + digits.substring(1);
      String power = String.format("%02d", Math.abs(exponent));
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + power;
    }
    int point = exponent + 1;
    if (point <= 0) {
      return sign + "0." + "0".repeat(-point) + digits;
    }
    if (point >= digits.length()) {
      return sign + digits + "0".repeat(point - digits.length());
    }
    return sign + digits.substring(0, point) + "." + digits.substring(point);
  }

  /** Go orders map keys by their UTF-8 bytes, which is code point order. */
  private static int compareCodePoints(String a, String b) {
    return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
  }
}
