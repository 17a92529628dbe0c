package io.github.dra4j.cel;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationException;
import io.github.dra4j.core.quantity.QuantityValue;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runtime facts about CEL values as the Java runtime represents them: their CEL type names (for
 * error texts) and CEL ordering. Stateless.
 */
final class CelValues {

  private CelValues() {}

  /** Returns the CEL type name of a runtime value, e.g. {@code int} or {@code kubernetes.Semver}. */
  static String typeName(Object value) {
    if (value == null) {
      return "null_type";
    }
    if (value instanceof Long) {
      return "int";
    }
    if (value instanceof UnsignedLong) {
      return "uint";
    }
    if (value instanceof Double) {
      return "double";
    }
    if (value instanceof String) {
      return "string";
    }
    if (value instanceof Boolean) {
      return "bool";
    }
    if (value instanceof CelByteString) {
      return "bytes";
    }
    if (value instanceof List) {
      return "list";
    }
    if (value instanceof Map) {
      return "map";
    }
    if (value instanceof Duration) {
      return "google.protobuf.Duration";
    }
    if (value instanceof Instant) {
      return "google.protobuf.Timestamp";
    }
    if (value instanceof Optional) {
      return "optional_type";
    }
    return kubernetesTypeName(value).orElse(value.getClass().getSimpleName());
  }

  /** Returns the type name for the values of the Kubernetes libraries, empty for others. */
  static Optional<String> kubernetesTypeName(Object value) {
    if (value instanceof QuantityValue) {
      return Optional.of(KubernetesTypes.QUANTITY.name());
    }
    if (value instanceof SemverValue) {
      return Optional.of(KubernetesTypes.SEMVER.name());
    }
    if (value instanceof NetworkValues.IpAddress) {
      return Optional.of(KubernetesTypes.IP.name());
    }
    if (value instanceof NetworkValues.Cidr) {
      return Optional.of(KubernetesTypes.CIDR.name());
    }
    if (value instanceof UrlFunctions.ParsedUrl) {
      return Optional.of(KubernetesTypes.URL.name());
    }
    return Optional.empty();
  }

  /**
   * Compares two values with CEL ordering: numbers across int/uint/double, otherwise values of
   * the same type (bool, string, bytes, duration, timestamp).
   *
   * @throws CelEvaluationException {@code no such overload} for values that have no ordering
   */
  static int compare(Object a, Object b) throws CelEvaluationException {
    if (a instanceof Number x && b instanceof Number y) {
      if (isNaN(a) || isNaN(b)) {
        return Double.compare(x.doubleValue(), y.doubleValue());
      }
      return toDecimal(a).compareTo(toDecimal(b));
    }
    if (a instanceof String x && b instanceof String y) {
      return Integer.signum(x.compareTo(y));
    }
    if (a instanceof Boolean x && b instanceof Boolean y) {
      return Boolean.compare(x, y);
    }
    if (a instanceof Duration x && b instanceof Duration y) {
      return x.compareTo(y);
    }
    if (a instanceof Instant x && b instanceof Instant y) {
      return x.compareTo(y);
    }
    if (a instanceof CelByteString x && b instanceof CelByteString y) {
      return Integer.signum(CelByteString.unsignedLexicographicalComparator().compare(x, y));
    }
    throw FunctionLibrary.error(
        "no such overload: compare(" + typeName(a) + ", " + typeName(b) + ")");
  }

  private static boolean isNaN(Object number) {
    return number instanceof Double d && (d.isNaN() || d.isInfinite());
  }

  private static BigDecimal toDecimal(Object number) {
    if (number instanceof Long value) {
      return BigDecimal.valueOf(value);
    }
    if (number instanceof UnsignedLong unsignedLong) {
      return new BigDecimal(unsignedLong.bigIntegerValue());
    }
    return new BigDecimal(((Number) number).doubleValue());
  }
}
