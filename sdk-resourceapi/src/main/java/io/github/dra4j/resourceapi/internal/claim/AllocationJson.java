package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationConfiguration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
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

// SHARED-CANDIDATE: tolerations, quantities and opaque parameters print as in InternalSpecJson
// (claim spec); one helper for the internal JSON of shared types could serve both.
/**
 * Prints an allocation as the API server prints the refused value of {@code status.allocation:
 * Invalid value: ...: field is immutable}: since Kubernetes 1.34 that is {@code json.Marshal} of
 * its internal {@code resource.AllocationResult}, whose fields have no JSON tags, so they appear
 * under their Go names, in declaration order (Kubernetes 1.36's), with unset pointers and lists as
 * {@code null}. Opaque parameters keep the order of their keys, quantities are printed in their
 * canonical form and timestamps in UTC to the second. Stateless.
 */
final class AllocationJson {

  private AllocationJson() {}

  /**
   * Prints an allocation.
   *
   * @param allocation the allocation, not null
   * @return the printed value, to be shown as it is
   */
  static GoValues.Raw print(AllocationResult allocation) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Devices", devices(allocation.getDevices()));
    fields.put("NodeSelector", nodeSelector(allocation.getNodeSelector()));
    fields.put("AllocationTimestamp", timestamp(allocation.getAllocationTimestamp()));
    return GoValues.json(new GoValues.Struct(fields));
  }

  private static GoValues.Struct devices(DeviceAllocationResult devices) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Results", list(devices == null ? null : devices.getResults(),
        AllocationJson::result));
    fields.put("Config", list(devices == null ? null : devices.getConfig(),
        AllocationJson::config));
    return new GoValues.Struct(fields);
  }

  private static GoValues.Struct result(DeviceRequestAllocationResult result) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Request", string(result.getRequest()));
    fields.put("Driver", string(result.getDriver()));
    fields.put("Pool", string(result.getPool()));
    fields.put("Device", string(result.getDevice()));
    fields.put("AdminAccess", result.getAdminAccess());
    fields.put("Tolerations", list(result.getTolerations(), AllocationJson::toleration));
    fields.put("BindingConditions", list(result.getBindingConditions(), Function.identity()));
    fields.put("BindingFailureConditions", list(result.getBindingFailureConditions(),
        Function.identity()));
    fields.put("ShareID", result.getShareID());
    fields.put("ConsumedCapacity", quantities(result.getConsumedCapacity()));
    return new GoValues.Struct(fields);
  }

  private static GoValues.Struct toleration(DeviceToleration toleration) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Key", string(toleration.getKey()));
    fields.put("Operator", string(toleration.getOperator()));
    fields.put("Value", string(toleration.getValue()));
    fields.put("Effect", string(toleration.getEffect()));
    fields.put("TolerationSeconds", toleration.getTolerationSeconds());
    return new GoValues.Struct(fields);
  }

  /** The embedded DeviceConfiguration has no name of its own: its Opaque field is promoted. */
  private static GoValues.Struct config(DeviceAllocationConfiguration config) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Source", string(config.getSource()));
    fields.put("Requests", list(config.getRequests(), Function.identity()));
    OpaqueDeviceConfiguration opaque = config.getOpaque();
    if (opaque == null) {
      fields.put("Opaque", null);
    } else {
      Map<String, Object> opaqueFields = new LinkedHashMap<>();
      opaqueFields.put("Driver", string(opaque.getDriver()));
      opaqueFields.put("Parameters", ordered(Json.plain(opaque.getParameters())));
      fields.put("Opaque", new GoValues.Struct(opaqueFields));
    }
    return new GoValues.Struct(fields);
  }

  private static GoValues.Struct nodeSelector(NodeSelector selector) {
    if (selector == null) {
      return null;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("NodeSelectorTerms", list(selector.getNodeSelectorTerms(), AllocationJson::term));
    return new GoValues.Struct(fields);
  }

  private static GoValues.Struct term(NodeSelectorTerm term) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("MatchExpressions", list(term.getMatchExpressions(),
        AllocationJson::requirement));
    fields.put("MatchFields", list(term.getMatchFields(), AllocationJson::requirement));
    return new GoValues.Struct(fields);
  }

  private static GoValues.Struct requirement(NodeSelectorRequirement requirement) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Key", string(requirement.getKey()));
    fields.put("Operator", string(requirement.getOperator()));
    fields.put("Values", list(requirement.getValues(), Function.identity()));
    return new GoValues.Struct(fields);
  }

  /** A metav1.Time is written in RFC 3339, in UTC, to the second. */
  private static String timestamp(String value) {
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

  /** Go's map of quantities: keys sorted, each quantity as its canonical string. */
  private static Map<String, Object> quantities(Map<String, Quantity> map) {
    if (map == null || map.isEmpty()) {
      return null;
    }
    Map<String, Object> out = new TreeMap<>();
    map.forEach((name, quantity) -> out.put(name, quantity == null ? "0" : canonical(quantity)));
    return out;
  }

  private static String canonical(Quantity quantity) {
    String text = nullToEmpty(quantity.getAmount()) + nullToEmpty(quantity.getFormat());
    return QuantityValue.tryParse(text).map(QuantityValue::toKubernetesString).orElse(text);
  }

  /** A raw JSON value keeps its keys in the order they were written. */
  private static Object ordered(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> fields = new LinkedHashMap<>();
      map.forEach((key, item) -> fields.put(String.valueOf(key), ordered(item)));
      return new GoValues.Struct(fields);
    }
    if (value instanceof List<?> items) {
      return items.stream().map(AllocationJson::ordered).toList();
    }
    return value;
  }

  private static <T> List<Object> list(List<T> items, Function<? super T, ?> item) {
    if (items == null || items.isEmpty()) {
      return null;
    }
    return items.stream().<Object>map(item).toList();
  }

  private static String string(String value) {
    return nullToEmpty(value);
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
