package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.member;
import static io.github.dra4j.cel.KubernetesTypes.STRING;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The strings extension's {@code <string>.format(list)} as Kubernetes configures it (the formatter
 * before cel-go strings version 4): clauses {@code %s %d %f %e %b %x %X %o} with an optional
 * precision ({@code %.2f}) and {@code %%}. cel-java has no such function, so it is implemented
 * here.
 */
final class StringFormatFunction implements FunctionLibrary {

  @Override
  public List<CelFunctionDecl> declarations() {
    return List.of(
        member("format", "string_format", STRING, STRING, ListType.create(SimpleType.DYN)));
  }

  @Override
  public List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from(
            "string_format", String.class, List.class, StringFormatFunction::format));
  }

  static String format(String template, List<?> args) throws CelEvaluationException {
    StringBuilder out = new StringBuilder();
    int argIndex = 0;
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i++);
      if (c != '%') {
        out.append(c);
        continue;
      }
      if (i >= template.length()) {
        throw FunctionLibrary.error("unexpected end of format string: missing formatting clause");
      }
      if (template.charAt(i) == '%') {
        out.append('%');
        i++;
        continue;
      }
      Integer precision = null;
      if (template.charAt(i) == '.') {
        int start = ++i;
        while (i < template.length() && Character.isDigit(template.charAt(i))) {
          i++;
        }
        precision = start == i ? 0 : Integer.parseInt(template.substring(start, i));
      }
      if (i >= template.length()) {
        throw FunctionLibrary.error("unexpected end of format string: missing formatting clause");
      }
      char verb = template.charAt(i++);
      if (argIndex >= args.size()) {
        throw FunctionLibrary.error("index " + argIndex + " out of range");
      }
      out.append(clause(verb, precision, args.get(argIndex++)));
    }
    return out.toString();
  }

  private static String clause(char verb, Integer precision, Object arg)
      throws CelEvaluationException {
    return switch (verb) {
      case 's' -> asString(arg);
      case 'd' -> integer(arg, 10, "decimal");
      case 'f' ->
        String.format(
            Locale.ROOT,
            "%." + (precision == null ? 6 : precision) + "f",
            number(arg, "fixed-point"));
      case 'e' ->
        String.format(
            Locale.ROOT,
            "%." + (precision == null ? 6 : precision) + "e",
            number(arg, "scientific"));
      case 'b' -> arg instanceof Boolean ? arg.toString() : integer(arg, 2, "binary");
      case 'o' -> integer(arg, 8, "octal");
      case 'x' -> hex(arg);
      case 'X' -> hex(arg).toUpperCase(Locale.ROOT);
      default ->
        throw FunctionLibrary.error(
            "could not parse formatting clause: unrecognized formatting clause \"" + verb + "\"");
    };
  }

  private static String asString(Object arg) {
    if (arg instanceof List) {
      StringBuilder b = new StringBuilder("[");
      for (Object element : (List<?>) arg) {
        b.append(b.length() > 1 ? ", " : "").append(asString(element));
      }
      return b.append(']').toString();
    }
    if (arg instanceof Map) {
      StringBuilder b = new StringBuilder("{");
      for (Map.Entry<?, ?> e : ((Map<?, ?>) arg).entrySet()) {
        b.append(b.length() > 1 ? ", " : "")
            .append(asString(e.getKey()))
            .append(": ")
            .append(asString(e.getValue()));
      }
      return b.append('}').toString();
    }
    if (arg instanceof Double boxed) {
      double d = boxed;
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return Double.isNaN(d) ? "NaN" : d > 0 ? "+Inf" : "-Inf";
      }
      return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
    if (arg instanceof CelByteString celByteString) {
      return new String(celByteString.toByteArray(), StandardCharsets.UTF_8);
    }
    return arg == null ? "null" : arg.toString();
  }

  private static String integer(Object arg, int radix, String what) throws CelEvaluationException {
    if (arg instanceof Long boxed) {
      long v = boxed;
      String digits = Long.toString(Math.abs(v), radix);
      return v < 0 ? "-" + digits.replace("-", "") : digits;
    }
    if (arg instanceof UnsignedLong unsignedLong) {
      return unsignedLong.toString(radix);
    }
    throw FunctionLibrary.error(
        "error during formatting: " + what + " clause can only be used on integers, was given "
            + CelValues.typeName(arg));
  }

  private static double number(Object arg, String what) throws CelEvaluationException {
    if (arg instanceof Number number) {
      return number.doubleValue();
    }
    throw FunctionLibrary.error(
        "error during formatting: " + what + " clause can only be used on numbers, was given "
            + CelValues.typeName(arg));
  }

  private static String hex(Object arg) throws CelEvaluationException {
    if (arg instanceof String string) {
      return hexBytes(string.getBytes(StandardCharsets.UTF_8));
    }
    if (arg instanceof CelByteString celByteString) {
      return hexBytes(celByteString.toByteArray());
    }
    return integer(arg, 16, "hex");
  }

  private static String hexBytes(byte[] bytes) {
    StringBuilder b = new StringBuilder();
    for (byte x : bytes) {
      b.append(String.format(Locale.ROOT, "%02x", x & 0xff));
    }
    return b.toString();
  }
}
