package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The structures that the server's slice messages show as values. Since Kubernetes 1.34 the
 * server prints them as JSON, and validation runs on its internal types, which have no JSON tags:
 * fields carry their Go names ({@code MatchExpressions}, {@code StringValue}) in declaration
 * order, absent pointers and lists print as {@code null}. Fabric8 cannot tell an absent list from
 * an empty one, so both print as {@code null}. Stateless.
 */
final class GoSyntax {

  private GoSyntax() {}

  /**
   * Node selector terms as the server prints a {@code []core.NodeSelectorTerm}.
   *
   * @param terms the terms, may be null
   * @return the printed value
   */
  static GoValues.Raw nodeSelectorTerms(List<NodeSelectorTerm> terms) {
    return GoValues.json(list(terms, GoSyntax::term));
  }

  /**
   * A device attribute as the server prints a {@code resource.DeviceAttribute}.
   *
   * @param attribute the attribute
   * @return the printed value
   */
  static GoValues.Raw deviceAttribute(DeviceAttribute attribute) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("IntValue", attribute.getInt());
    fields.put("BoolValue", attribute.getBool());
    fields.put("StringValue", attribute.getString());
    fields.put("VersionValue", attribute.getVersion());
    fields.put("IntValues", list(attribute.getInts(), v -> v));
    fields.put("BoolValues", list(attribute.getBools(), v -> v));
    fields.put("StringValues", list(attribute.getStrings(), v -> v));
    fields.put("VersionValues", list(attribute.getVersions(), v -> v));
    return GoValues.json(new GoValues.Struct(fields));
  }

  /**
   * A list of string-typed values (such as {@code []resource.SkipNodeOperation}) as the server
   * prints it.
   *
   * @param values the values, may be null
   * @return the printed value
   */
  static GoValues.Raw stringList(List<String> values) {
    return GoValues.json(list(values, v -> v));
  }

  private static GoValues.Struct term(NodeSelectorTerm term) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("MatchExpressions", list(term.getMatchExpressions(), GoSyntax::requirement));
    fields.put("MatchFields", list(term.getMatchFields(), GoSyntax::requirement));
    return new GoValues.Struct(fields);
  }

  private static GoValues.Struct requirement(NodeSelectorRequirement requirement) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Key", nullToEmpty(requirement.getKey()));
    fields.put("Operator", nullToEmpty(requirement.getOperator()));
    fields.put("Values", list(requirement.getValues(), v -> v));
    return new GoValues.Struct(fields);
  }

  // A list as JSON sees a Go slice: null when absent (or, for fabric8, empty).
  private static <T> List<Object> list(List<T> items, Function<? super T, ?> item) {
    if (items == null || items.isEmpty()) {
      return null;
    }
    List<Object> out = new ArrayList<>();
    for (T value : items) {
      out.add(value == null ? null : item.apply(value));
    }
    return out;
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
