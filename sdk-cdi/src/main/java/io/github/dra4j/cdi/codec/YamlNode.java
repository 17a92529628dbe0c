package io.github.dra4j.cdi.codec;

import java.util.List;

/** A node of a parsed YAML document; collections are filled while the document is read. */
sealed interface YamlNode {
  /** The 1-based line the node starts on, for messages. */
  int line();

  /**
   * A scalar.
   *
   * @param value the text, escapes and folding applied
   * @param plain true if unquoted (only then is it typed as bool, number or null)
   * @param tag the explicit tag, e.g. {@code tag:yaml.org,2002:str}; null if none
   * @param line the line it starts on
   */
  record Scalar(String value, boolean plain, String tag, int line) implements YamlNode {}

  /**
   * A sequence.
   *
   * @param items the items
   * @param line the line it starts on
   */
  record Sequence(List<YamlNode> items, int line) implements YamlNode {}

  /**
   * A mapping.
   *
   * @param entries keys and values, alternating, in document order
   * @param line the line it starts on
   */
  record Mapping(List<YamlNode> entries, int line) implements YamlNode {}

  /**
   * An alias of an anchored node.
   *
   * @param anchor the anchor name
   * @param target the anchored node
   * @param line the line of the alias
   */
  record Alias(String anchor, YamlNode target, int line) implements YamlNode {}
}
