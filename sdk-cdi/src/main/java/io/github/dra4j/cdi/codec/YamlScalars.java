package io.github.dra4j.cdi.codec;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Types scalars with the YAML 1.1 rules of the reference library's YAML decoder.
 *
 * <p>Only unquoted scalars without a tag are typed: {@code y/yes/on/true} and {@code
 * n/no/off/false} (in lower, capitalised or upper case) are booleans; {@code ~}, {@code null} and
 * the empty scalar are null; {@code .inf}/{@code .nan} are floats; integers are read with Go's
 * syntax after removing every {@code _} ({@code 0x1F}, {@code 0o17}, {@code 0b101}, and a
 * leading {@code 0} means octal: {@code 0666} is 438), beyond 64 bits as an unsigned integer, else
 * as a float if they look like one ({@code 1e3}, {@code 1.10}, {@code 08}); everything else is a
 * string. A tag asks for a type: {@code !!str}, {@code !!int}, {@code !!float}, {@code !!bool},
 * {@code !!binary} (base64); any other tag yields the string. Stateless.
 */
final class YamlScalars {
  private static final String TAG_PREFIX = "tag:yaml.org,2002:";
  private static final Pattern FLOAT = Pattern
      .compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64)
      .subtract(BigInteger.ONE);
  private static final Object NULL = new Object();
  private static final Map<String, Object> WORDS = words();

  private YamlScalars() {}

  private static Map<String, Object> words() {
    Map<String, Object> words = new HashMap<>();
    for (String word : new String[] {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
        "on", "On", "ON"}) {
      words.put(word, true);
    }
    for (String word : new String[] {"n", "N", "no", "No", "NO", "false", "False", "FALSE",
        "off", "Off", "OFF"}) {
      words.put(word, false);
    }
    for (String word : new String[] {"", "~", "null", "Null", "NULL"}) {
      words.put(word, NULL);
    }
    for (String word : new String[] {".nan", ".NaN", ".NAN"}) {
      words.put(word, Double.NaN);
    }
    for (String word : new String[] {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}) {
      words.put(word, Double.POSITIVE_INFINITY);
    }
    for (String word : new String[] {"-.inf", "-.Inf", "-.INF"}) {
      words.put(word, Double.NEGATIVE_INFINITY);
    }
    return Map.copyOf(words);
  }

  /**
   * Types a scalar.
   *
   * @param scalar the scalar
   * @return String, Boolean, Long, BigInteger (above the long range), Double or null
   * @throws DecodeException if a tag asks for a type the text is not
   */
  static Object resolve(YamlNode.Scalar scalar) {
    String tag = scalar.tag();
    String text = scalar.value();
    if (tag == null) {
      return scalar.plain() ? plain(text) : text;
    }
    String type = tag.startsWith(TAG_PREFIX) ? tag.substring(TAG_PREFIX.length()) : "";
    switch (type) {
      case "str" -> {
        return text;
      }
      case "binary" -> {
        return binary(text, scalar.line());
      }
      case "int", "float", "bool" -> {
      }
      default -> {
        return text;
      }
    }
    Object typed = plain(text);
    if (type.equals("float") && typed instanceof Long value) {
      return value.doubleValue();
    }
    boolean matches = (type.equals("int") && (typed instanceof Long || typed instanceof BigInteger))
        || (type.equals("float") && typed instanceof Double)
        || (type.equals("bool") && typed instanceof Boolean);
    if (!matches) {
      throw new DecodeException("invalid YAML: cannot decode `" + text + "` as a !!" + type
          + " (line " + scalar.line() + ")");
    }
    return typed;
  }

  private static Object plain(String text) {
    Object word = WORDS.get(text);
    if (word != null) {
      return word == NULL ? null : word;
    }
    if (text.isEmpty()) {
      return text;
    }
    char first = text.charAt(0);
    if (first == '.') {
      return floatOrText(text, text);
    }
    if (first != '+' && first != '-' && (first < '0' || first > '9')) {
      return text;
    }
    String digits = text.replace("_", "");
    BigInteger integer = goInteger(digits);
    if (integer != null) {
      if (integer.bitLength() < 64) {
        return integer.longValue();
      }
      // Above the signed range only without a sign, as Go's unsigned parse reads it.
      if (Character.isDigit(first) && integer.compareTo(UINT64_MAX) <= 0) {
        return integer;
      }
    }
    return floatOrText(digits, text);
  }

  private static Object floatOrText(String candidate, String text) {
    if (FLOAT.matcher(candidate).matches()) {
      double value = Double.parseDouble(candidate);
      if (!Double.isInfinite(value)) {
        return value;
      }
    }
    return text;
  }

  /** An integer in Go's syntax with base prefix ({@code strconv.ParseInt(s, 0, 64)}), or null. */
  private static BigInteger goInteger(String text) {
    int i = 0;
    boolean negative = false;
    if (text.startsWith("+") || text.startsWith("-")) {
      negative = text.charAt(0) == '-';
      i = 1;
    }
    String rest = text.substring(i);
    int radix = 10;
    if (rest.length() > 2 && rest.charAt(0) == '0') {
      char prefix = Character.toLowerCase(rest.charAt(1));
      radix = prefix == 'x' ? 16 : prefix == 'b' ? 2 : prefix == 'o' ? 8 : 10;
      rest = radix == 10 ? rest : rest.substring(2);
    }
    if (radix == 10 && rest.length() > 1 && rest.charAt(0) == '0') {
      radix = 8;
    }
    int base = radix;
    if (rest.isEmpty() || !rest.chars().allMatch(c -> Character.digit(c, base) >= 0)) {
      return null;
    }
    BigInteger value = new BigInteger(rest, base);
    return negative ? value.negate() : value;
  }

  private static String binary(String text, int line) {
    try {
      byte[] bytes = Base64.getDecoder().decode(text.replace("\r", "").replace("\n", ""));
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new DecodeException("invalid YAML: !!binary value contains invalid base64 data"
          + " (line " + line + ")");
    }
  }
}
