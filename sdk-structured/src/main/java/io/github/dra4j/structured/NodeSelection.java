package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;

/**
 * Node-affinity matching of a {@link NodeSelector} against one node: terms are ORed, the
 * requirements in a term ANDed; label operators In, NotIn, Exists, DoesNotExist, Gt, Lt; field
 * requirements only on {@code metadata.name} with In and NotIn. A term without requirements
 * matches nothing. Immutable; thread-safe.
 */
final class NodeSelection {

  private final String nodeName;
  private final Map<String, String> labels;

  NodeSelection(String nodeName, Map<String, String> labels) {
    this.nodeName = nodeName;
    this.labels = labels;
  }

  String nodeName() {
    return nodeName;
  }

  /**
   * Returns whether the node matches.
   *
   * @throws IllegalArgumentException naming the bad requirement when the selector cannot be
   *     parsed (unknown operator, non-integer Gt/Lt value, unsupported field)
   */
  boolean matches(NodeSelector selector) {
    boolean any = false;
    for (NodeSelectorTerm term : nonNull(selector.getNodeSelectorTerms())) {
      any |= matches(term);
    }
    return any;
  }

  private boolean matches(NodeSelectorTerm term) {
    List<NodeSelectorRequirement> expressions = nonNull(term.getMatchExpressions());
    List<NodeSelectorRequirement> fields = nonNull(term.getMatchFields());
    if (expressions.isEmpty() && fields.isEmpty()) {
      return false;
    }
    boolean all = true;
    for (NodeSelectorRequirement r : expressions) {
      all &= matchesLabel(r);
    }
    for (NodeSelectorRequirement r : fields) {
      all &= matchesField(r);
    }
    return all;
  }

  private boolean matchesLabel(NodeSelectorRequirement r) {
    String key = r.getKey();
    List<String> values = nonNull(r.getValues());
    String operator = String.valueOf(r.getOperator());
    boolean has = labels.containsKey(key);
    switch (operator) {
      case "In" -> {
        requireValues(r, values);
        return has && values.contains(labels.get(key));
      }
      case "NotIn" -> {
        requireValues(r, values);
        return !has || !values.contains(labels.get(key));
      }
      case "Exists" -> {
        requireNoValues(r, values);
        return has;
      }
      case "DoesNotExist" -> {
        requireNoValues(r, values);
        return !has;
      }
      case "Gt", "Lt" -> {
        long limit = singleInteger(r, values);
        if (!has) {
          return false;
        }
        long actual;
        try {
          actual = Long.parseLong(labels.get(key));
        } catch (NumberFormatException e) {
          return false;
        }
        return operator.equals("Gt") ? actual > limit : actual < limit;
      }
      default ->
        throw new IllegalArgumentException(
            "\"" + operator + "\" is not a valid label selector operator (key \"" + key + "\")");
    }
  }

  private boolean matchesField(NodeSelectorRequirement r) {
    if (!"metadata.name".equals(r.getKey())) {
      throw new IllegalArgumentException(
          "field selector key \"" + r.getKey() + "\" is not supported, only metadata.name");
    }
    List<String> values = nonNull(r.getValues());
    if (values.size() != 1) {
      throw new IllegalArgumentException(
          "field selector on metadata.name must have exactly one value, has " + values);
    }
    return switch (String.valueOf(r.getOperator())) {
      case "In" -> values.get(0).equals(nodeName);
      case "NotIn" -> !values.get(0).equals(nodeName);
      default ->
        throw new IllegalArgumentException(
            "\"" + r.getOperator() + "\" is not a valid field selector operator");
    };
  }

  private static void requireValues(NodeSelectorRequirement r, List<String> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException(
          "values for operator " + r.getOperator() + " on key \"" + r.getKey()
              + "\" must be non-empty");
    }
  }

  private static void requireNoValues(NodeSelectorRequirement r, List<String> values) {
    if (!values.isEmpty()) {
      throw new IllegalArgumentException(
          "values for operator " + r.getOperator() + " on key \"" + r.getKey()
              + "\" must be empty, are " + values);
    }
  }

  private static long singleInteger(NodeSelectorRequirement r, List<String> values) {
    if (values.size() != 1) {
      throw new IllegalArgumentException(
          "operator " + r.getOperator() + " on key \"" + r.getKey()
              + "\" needs exactly one value, has " + values);
    }
    try {
      return Long.parseLong(values.get(0));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "operator " + r.getOperator() + " on key \"" + r.getKey() + "\": value \"" + values.get(0)
              + "\" is not an integer",
          e);
    }
  }

  static <T> List<T> nonNull(List<T> list) {
    return list == null ? List.of() : list;
  }
}
