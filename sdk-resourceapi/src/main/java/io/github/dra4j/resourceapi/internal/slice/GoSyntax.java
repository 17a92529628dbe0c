package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.github.dra4j.resourceapi.internal.device.GoStructs;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.List;

/**
 * The structures that the server's slice messages show as values, printed as {@link GoStructs}
 * says (JSON of the internal Go types: {@code MatchExpressions}, {@code StringValue}). Stateless.
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
    return GoValues.json(GoStructs.nodeSelectorTerms(terms));
  }

  /**
   * A device attribute as the server prints a {@code resource.DeviceAttribute}.
   *
   * @param attribute the attribute
   * @return the printed value
   */
  static GoValues.Raw deviceAttribute(DeviceAttribute attribute) {
    return GoValues.json(GoStructs.struct(
        "IntValue", attribute.getInt(),
        "BoolValue", attribute.getBool(),
        "StringValue", attribute.getString(),
        "VersionValue", attribute.getVersion(),
        "IntValues", GoStructs.list(attribute.getInts(), v -> v),
        "BoolValues", GoStructs.list(attribute.getBools(), v -> v),
        "StringValues", GoStructs.list(attribute.getStrings(), v -> v),
        "VersionValues", GoStructs.list(attribute.getVersions(), v -> v)));
  }

  /**
   * A list of string-typed values (such as {@code []resource.SkipNodeOperation}) as the server
   * prints it.
   *
   * @param values the values, may be null
   * @return the printed value
   */
  static GoValues.Raw stringList(List<String> values) {
    return GoValues.json(GoStructs.list(values, v -> v));
  }
}
