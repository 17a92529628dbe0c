package io.github.dra4j.resourceslice.internal.compare;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.core.quantity.QuantityValue;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Kubernetes semantic equality ({@code apiequality.Semantic.DeepEqual}) for the parts of a
 * ResourceSlice the controller compares: null and empty lists or maps are equal, quantities
 * compare by exact value ({@code 1} equals {@code 1000m}, {@code 1Gi} equals {@code 1024Mi}, with
 * the same parser CEL and the allocator use), times by instant, list order matters. The
 * taint-tolerant device comparison ({@link #devicesDeepEqual}) additionally compares a taint's
 * {@code timeAdded} only when both sides have one, within one second, because the API server
 * fills in a missing time.
 *
 * <p>Values are compared as normalized JSON trees (empty and null members removed, quantities
 * canonical), so new API fields are covered without code changes. Thread-safe and stateless
 * apart from the serializer.
 */
public final class SemanticEquality {

  private static final Set<String> QUANTITY_KEYS = Set.of("value", "default", "min", "max", "step",
      "validValues");
  private static final Duration TAINT_TIME_TOLERANCE = Duration.ofSeconds(1);
  private static final List<String> TAINT_IDENTITY = List.of("key", "value", "effect");

  private final KubernetesSerialization serialization;

  /**
   * Creates a comparator.
   *
   * @param serialization the fabric8 serializer used to turn model objects into JSON trees
   */
  public SemanticEquality(KubernetesSerialization serialization) {
    this.serialization = serialization;
  }

  /**
   * Returns a comparator with its own default serializer.
   *
   * @return the shared default instance
   */
  public static SemanticEquality standard() {
    return Standard.INSTANCE;
  }

  /**
   * Compares device lists the way the controller decides whether a slice needs an update: a
   * taint's {@code timeAdded} counts only when set on both sides and then within one second.
   *
   * @param a one list (null equals empty)
   * @param b the other list
   * @return true if semantically equal
   */
  public static boolean devicesDeepEqual(List<Device> a, List<Device> b) {
    return Standard.INSTANCE.devices(a, b, true);
  }

  /**
   * Compares device lists.
   *
   * @param a one list (null equals empty)
   * @param b the other list
   * @param taintTolerant true for the timeAdded rule of {@link #devicesDeepEqual}, false for exact
   *     times
   * @return true if semantically equal
   */
  public boolean devices(List<Device> a, List<Device> b, boolean taintTolerant) {
    List<JsonNode> contentB = b == null ? List.of() : b.stream().map(this::contentOf).toList();
    return devices(a, b, contentB, taintTolerant);
  }

  /**
   * Compares device lists when the second list's {@link #contentOf content} is already known, so
   * a desired device compared on every sync is serialized once, not each time.
   *
   * @param a one list (null equals empty)
   * @param b the other list
   * @param contentB {@link #contentOf} of each device of {@code b}, in order
   * @param taintTolerant as in {@link #devices(List, List, boolean)}
   * @return true if semantically equal
   */
  public boolean devices(List<Device> a, List<Device> b, List<JsonNode> contentB,
      boolean taintTolerant) {
    int sizeA = a == null ? 0 : a.size();
    int sizeB = b == null ? 0 : b.size();
    if (sizeA != sizeB) {
      return false;
    }
    for (int i = 0; i < sizeA; i++) {
      ObjectNode treeA = (ObjectNode) tree(a.get(i));
      JsonNode taintsA = treeA.remove("taints");
      if (!java.util.Objects.equals(normalize(treeA, null), contentB.get(i))
          || !taints(taintsA, tree(b.get(i).getTaints()), taintTolerant)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The normalized content of a device without its taints. Taints are left out because their
   * times may still change (the server fills in a missing {@code timeAdded}); they are always
   * compared from the live objects.
   *
   * @param device a device
   * @return its normalized JSON tree without {@code taints}
   */
  public JsonNode contentOf(Device device) {
    ObjectNode tree = (ObjectNode) tree(device);
    tree.remove("taints");
    return normalize(tree, null);
  }

  private boolean taints(JsonNode a, JsonNode b, boolean tolerant) {
    int sizeA = a == null ? 0 : a.size();
    int sizeB = b == null ? 0 : b.size();
    if (sizeA != sizeB) {
      return false;
    }
    for (int i = 0; i < sizeA; i++) {
      JsonNode x = a.get(i);
      JsonNode y = b.get(i);
      for (String field : TAINT_IDENTITY) {
        if (!x.path(field).asString("").equals(y.path(field).asString(""))) {
          return false;
        }
      }
      String timeA = x.path("timeAdded").asString("");
      String timeB = y.path("timeAdded").asString("");
      if (tolerant) {
        if (!timeA.isEmpty() && !timeB.isEmpty() && !withinTolerance(timeA, timeB)) {
          return false;
        }
      } else if (!sameInstant(timeA, timeB)) {
        return false;
      }
    }
    return true;
  }

  private static boolean withinTolerance(String a, String b) {
    try {
      Duration diff = Duration.between(Instant.parse(a), Instant.parse(b)).abs();
      return diff.compareTo(TAINT_TIME_TOLERANCE) <= 0;
    } catch (DateTimeParseException e) {
      return a.equals(b);
    }
  }

  private static boolean sameInstant(String a, String b) {
    if (a.isEmpty() || b.isEmpty()) {
      return a.equals(b);
    }
    try {
      return Instant.parse(a).equals(Instant.parse(b));
    } catch (DateTimeParseException e) {
      return a.equals(b);
    }
  }

  /**
   * Compares any two model values (node selectors, counter sets, pool headers) semantically.
   *
   * @param a one value, may be null
   * @param b the other value, may be null
   * @return true if their normalized JSON trees are equal
   */
  public boolean equal(Object a, Object b) {
    return java.util.Objects.equals(normalize(tree(a), null), normalize(tree(b), null));
  }

  private JsonNode tree(Object value) {
    if (value == null) {
      return null;
    }
    return serialization.convertValue(value, JsonNode.class);
  }

  /**
   * Normalizes a JSON tree: drops null members and empty objects or arrays, canonicalizes
   * quantities. Array elements that normalize to nothing become empty objects so positions stay.
   */
  private static JsonNode normalize(JsonNode node, String key) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        JsonNode value = normalize(member.getValue(), member.getKey());
        if (value != null) {
          out.set(member.getKey(), value);
        }
      }
      return out.isEmpty() ? null : out;
    }
    if (node.isArray()) {
      ArrayNode out = JsonNodeFactory.instance.arrayNode();
      for (JsonNode element : node) {
        JsonNode value = normalize(element, key);
        out.add(value == null ? JsonNodeFactory.instance.objectNode() : value);
      }
      return out.isEmpty() ? null : out;
    }
    if (node.isString() && key != null && QUANTITY_KEYS.contains(key)) {
      return JsonNodeFactory.instance.stringNode(canonicalQuantity(node.asString()));
    }
    return node;
  }

  /** The exact value of a quantity as plain decimal text; text that is no quantity stays as is. */
  private static String canonicalQuantity(String text) {
    return QuantityValue.tryParse(text)
        .map(q -> q.toBigDecimal().stripTrailingZeros().toPlainString())
        .orElse(text);
  }

  /** Holds the serializer-owning default, built on first use only (the controller has its own). */
  private static final class Standard {
    static final SemanticEquality INSTANCE = new SemanticEquality(new KubernetesSerialization());
  }
}
