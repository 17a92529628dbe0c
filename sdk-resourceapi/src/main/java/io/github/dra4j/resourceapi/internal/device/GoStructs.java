package io.github.dra4j.resourceapi.internal.device;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.OpaqueDeviceConfiguration;
import io.github.dra4j.core.quantity.QuantityValue;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import io.github.dra4j.resourceapi.internal.field.Json;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The shared types of {@code resource.k8s.io} as the API server prints a refused structure in an
 * error (since Kubernetes 1.34, {@code json.Marshal} of its internal Go type): the fields of the
 * internal types have no JSON tags, so they appear under their Go names in declaration order,
 * with unset pointers and lists as {@code null} (fabric8 cannot tell an empty list from an absent
 * one, so both print {@code null}); quantities in canonical form, timestamps in UTC to the second,
 * opaque JSON with its keys in the order written. The building blocks ({@link #struct}, {@link
 * #list}, {@link #text}) serve the kind-specific printers too. Stateless.
 */
public final class GoStructs {

  private GoStructs() {}

  /**
   * A struct from field names and values, in order.
   *
   * @param namesAndValues name, value, name, value, ...
   * @return the struct
   */
  public static GoValues.Struct struct(Object... namesAndValues) {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      fields.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return new GoValues.Struct(fields);
  }

  /**
   * A Go slice: {@code null} when absent or empty, else each item printed.
   *
   * @param items the items, may be null
   * @param item prints one item
   * @param <T> the item type
   * @return the list, or null
   */
  public static <T> List<Object> list(List<T> items, Function<? super T, ?> item) {
    if (items == null || items.isEmpty()) {
      return null;
    }
    return items.stream().<Object> map(value -> value == null ? null : item.apply(value)).toList();
  }

  /**
   * A Go string: {@code ""} for an absent one.
   *
   * @param value the value, may be null
   * @return the value or {@code ""}
   */
  public static String text(String value) {
    return value == null ? "" : value;
  }

  /**
   * A quantity in its canonical form ({@code 1Gi}, {@code 500m}); an absent one is {@code 0}.
   *
   * @param quantity the quantity, may be null
   * @return the printed quantity
   */
  public static String quantity(Quantity quantity) {
    if (quantity == null) {
      return "0";
    }
    String written = text(quantity.getAmount()) + text(quantity.getFormat());
    return QuantityValue.tryParse(written).map(QuantityValue::toKubernetesString)
        .orElse(written);
  }

  /**
   * A Go map of quantities: keys sorted, each quantity canonical; null when absent or empty.
   *
   * @param map the map, may be null
   * @return the printed map, or null
   */
  public static Map<String, Object> quantities(Map<String, Quantity> map) {
    if (map == null || map.isEmpty()) {
      return null;
    }
    Map<String, Object> out = new TreeMap<>();
    map.forEach((name, value) -> out.put(name, quantity(value)));
    return out;
  }

  /**
   * A {@code metav1.Time}: RFC 3339 in UTC to the second; null when absent.
   *
   * @param value the time as written, may be null
   * @return the printed time, or null
   */
  public static String timestamp(String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(value).atZoneSameInstant(ZoneOffset.UTC).toLocalDateTime()
          .truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME) + "Z";
    } catch (DateTimeParseException e) {
      return value;
    }
  }

  /**
   * Opaque JSON with its object keys in the order written (a plain map would sort them).
   *
   * @param value fabric8's decoded value, may be null
   * @return the value to print
   */
  public static Object opaqueJson(Object value) {
    return ordered(Json.plain(value));
  }

  /**
   * A {@code resource.DeviceToleration}.
   *
   * @param toleration the toleration
   * @return the struct
   */
  public static GoValues.Struct toleration(DeviceToleration toleration) {
    return struct("Key", text(toleration.getKey()),
        "Operator", text(toleration.getOperator()),
        "Value", text(toleration.getValue()),
        "Effect", text(toleration.getEffect()),
        "TolerationSeconds", toleration.getTolerationSeconds());
  }

  /**
   * A {@code resource.OpaqueDeviceConfiguration}, or null.
   *
   * @param opaque the configuration, may be null
   * @return the struct, or null
   */
  public static GoValues.Struct opaque(OpaqueDeviceConfiguration opaque) {
    return opaque == null ? null : struct("Driver", text(opaque.getDriver()),
        "Parameters", opaqueJson(opaque.getParameters()));
  }

  /**
   * A {@code core.NodeSelector}, or null.
   *
   * @param selector the selector, may be null
   * @return the struct, or null
   */
  public static GoValues.Struct nodeSelector(NodeSelector selector) {
    return selector == null ? null
        : struct("NodeSelectorTerms", nodeSelectorTerms(selector.getNodeSelectorTerms()));
  }

  /**
   * A {@code []core.NodeSelectorTerm}, or null.
   *
   * @param terms the terms, may be null
   * @return the list, or null
   */
  public static List<Object> nodeSelectorTerms(List<NodeSelectorTerm> terms) {
    return list(terms, term -> struct(
        "MatchExpressions", list(term.getMatchExpressions(), GoStructs::requirement),
        "MatchFields", list(term.getMatchFields(), GoStructs::requirement)));
  }

  private static GoValues.Struct requirement(NodeSelectorRequirement requirement) {
    return struct("Key", text(requirement.getKey()),
        "Operator", text(requirement.getOperator()),
        "Values", list(requirement.getValues(), Function.identity()));
  }

  private static Object ordered(Object plain) {
    if (plain instanceof Map<?, ?> map) {
      Map<String, Object> fields = new LinkedHashMap<>();
      map.forEach((key, value) -> fields.put(String.valueOf(key), ordered(value)));
      return new GoValues.Struct(fields);
    }
    if (plain instanceof List<?> items) {
      return items.stream().map(GoStructs::ordered).toList();
    }
    return plain;
  }
}
