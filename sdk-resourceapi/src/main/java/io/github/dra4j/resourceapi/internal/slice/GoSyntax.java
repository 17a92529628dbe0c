package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.List;
import java.util.function.Function;

/**
 * Prints the structures that the server's slice messages show with Go's {@code %#v}: node
 * selector terms and device attributes, with the type names of the server's internal API. Fabric8
 * cannot tell an absent list from an empty one, so both print as Go's nil list. Stateless.
 */
final class GoSyntax {

  /**
   * Where Go prints the memory address of a pointer field that is set (which differs from run to
   * run), this fixed address is printed instead.
   */
  static final String POINTER_ADDRESS = "0xc000000000";

  /** How the server prints an absent value: the string {@code null}, quoted. */
  static final GoValues.Raw NULL = new GoValues.Raw("\"null\"");

  private GoSyntax() {}

  /**
   * Prints node selector terms as {@code []core.NodeSelectorTerm{...}}.
   *
   * @param terms the terms, may be null
   * @return the printed value
   */
  static GoValues.Raw nodeSelectorTerms(List<NodeSelectorTerm> terms) {
    return new GoValues.Raw(list("core.NodeSelectorTerm", terms, GoSyntax::term));
  }

  /**
   * Prints a device attribute as {@code resource.DeviceAttribute{...}}.
   *
   * @param attribute the attribute
   * @return the printed value
   */
  static GoValues.Raw deviceAttribute(DeviceAttribute attribute) {
    String text = "resource.DeviceAttribute{"
        + "IntValue:" + pointer("int64", attribute.getInt())
        + ", BoolValue:" + pointer("bool", attribute.getBool())
        + ", StringValue:" + pointer("string", attribute.getString())
        + ", VersionValue:" + pointer("string", attribute.getVersion())
        + ", IntValues:" + list("int64", attribute.getInts(), String::valueOf)
        + ", BoolValues:" + list("bool", attribute.getBools(), String::valueOf)
        + ", StringValues:" + list("string", attribute.getStrings(), GoSyntax::quote)
        + ", VersionValues:" + list("string", attribute.getVersions(), GoSyntax::quote)
        + "}";
    return new GoValues.Raw(text);
  }

  private static String term(NodeSelectorTerm term) {
    return "core.NodeSelectorTerm{MatchExpressions:"
        + list("core.NodeSelectorRequirement", term.getMatchExpressions(), GoSyntax::requirement)
        + ", MatchFields:"
        + list("core.NodeSelectorRequirement", term.getMatchFields(), GoSyntax::requirement)
        + "}";
  }

  private static String requirement(NodeSelectorRequirement requirement) {
    return "core.NodeSelectorRequirement{Key:" + GoValues.quote(nullToEmpty(requirement.getKey()))
        + ", Operator:" + GoValues.quote(nullToEmpty(requirement.getOperator()))
        + ", Values:" + list("string", requirement.getValues(), GoSyntax::quote) + "}";
  }

  private static <T> String list(String type, List<T> items, Function<T, String> item) {
    if (items == null || items.isEmpty()) {
      return "[]" + type + "(nil)";
    }
    StringBuilder out = new StringBuilder("[]").append(type).append('{');
    for (int i = 0; i < items.size(); i++) {
      out.append(i == 0 ? "" : ", ").append(item.apply(items.get(i)));
    }
    return out.append('}').toString();
  }

  private static String pointer(String type, Object value) {
    return "(*" + type + ")(" + (value == null ? "nil" : POINTER_ADDRESS) + ")";
  }

  private static String quote(String value) {
    return GoValues.quote(nullToEmpty(value));
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
