package io.github.dra4j.cdi.codec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns a YAML node tree into plain values the way the reference library's YAML decoder does
 * when it decodes into an untyped value, strictly: mappings become maps whose keys keep their
 * type, a key set twice is an error (also through a merge), {@code <<} merges maps, aliases
 * expand (an alias inside its own anchor is an error) and scalars are typed by {@link
 * YamlScalars}. Like that decoder it refuses documents that expand mostly from aliases. One
 * instance decodes one document; not thread-safe.
 */
final class YamlValues {
  private static final String MERGE_TAG = "tag:yaml.org,2002:merge";
  private static final int RATIO_RANGE_LOW = 400_000;
  private static final int RATIO_RANGE_HIGH = 4_000_000;

  private final Set<YamlNode.Alias> expanding = Collections.newSetFromMap(new IdentityHashMap<>());
  private int decodeCount;
  private int aliasCount;
  private int aliasDepth;

  private YamlValues() {}

  /**
   * Decodes a document's root node.
   *
   * @param root the node
   * @return a {@link Map}, {@link List}, String, Boolean, Long, BigInteger (above the long
   *     range), Double or null
   */
  static Object decode(YamlNode root) {
    return new YamlValues().value(root);
  }

  private Object value(YamlNode node) {
    countDecode();
    if (node instanceof YamlNode.Scalar scalar) {
      return YamlScalars.resolve(scalar);
    }
    if (node instanceof YamlNode.Alias alias) {
      return expand(alias, this::value);
    }
    if (node instanceof YamlNode.Sequence sequence) {
      List<Object> items = new ArrayList<>(sequence.items().size());
      sequence.items().forEach(item -> items.add(value(item)));
      return items;
    }
    Map<Object, Object> map = new LinkedHashMap<>();
    mapInto((YamlNode.Mapping) node, map);
    return map;
  }

  private <T> T expand(YamlNode.Alias alias, Function<YamlNode, T> decode) {
    if (!expanding.add(alias)) {
      throw new DecodeException("invalid YAML: anchor '" + alias.anchor()
          + "' value contains itself");
    }
    aliasDepth++;
    try {
      return decode.apply(alias.target());
    } finally {
      aliasDepth--;
      expanding.remove(alias);
    }
  }

  private void mapInto(YamlNode.Mapping mapping, Map<Object, Object> map) {
    List<YamlNode> entries = mapping.entries();
    for (int i = 0; i + 1 < entries.size(); i += 2) {
      YamlNode keyNode = entries.get(i);
      YamlNode valueNode = entries.get(i + 1);
      if (isMerge(keyNode)) {
        merge(valueNode, map);
        continue;
      }
      Object key = value(keyNode);
      if (key instanceof Map || key instanceof List) {
        throw new DecodeException("invalid YAML: invalid map key at line " + keyNode.line()
            + ": a key must be a scalar");
      }
      Object value = value(valueNode);
      if (map.containsKey(key)) {
        throw new DecodeException("invalid YAML: line " + valueNode.line() + ": key \"" + key
            + "\" already set in map");
      }
      map.put(key, value);
    }
  }

  /** A plain {@code <<} key (or one tagged as a merge) merges the maps of its value. */
  private static boolean isMerge(YamlNode node) {
    return node instanceof YamlNode.Scalar scalar && scalar.value().equals("<<")
        && ((scalar.plain() && (scalar.tag() == null || scalar.tag().equals("!")))
            || MERGE_TAG.equals(scalar.tag()));
  }

  private void merge(YamlNode value, Map<Object, Object> map) {
    if (value instanceof YamlNode.Sequence sequence) {
      // Later maps first, as the reference decoder does.
      for (int i = sequence.items().size() - 1; i >= 0; i--) {
        mergeOne(sequence.items().get(i), map);
      }
    } else {
      mergeOne(value, map);
    }
  }

  private void mergeOne(YamlNode value, Map<Object, Object> map) {
    if (value instanceof YamlNode.Mapping mapping) {
      countDecode();
      mapInto(mapping, map);
    } else if (value instanceof YamlNode.Alias alias
        && alias.target() instanceof YamlNode.Mapping target) {
      countDecode();
      expand(alias, node -> {
        countDecode();
        mapInto(target, map);
        return null;
      });
    } else {
      throw new DecodeException("invalid YAML: map merge requires map or sequence of maps as"
          + " the value (line " + value.line() + ")");
    }
  }

  /** The reference decoder's guard against documents that expand mostly from aliases. */
  private void countDecode() {
    decodeCount++;
    if (aliasDepth > 0) {
      aliasCount++;
    }
    if (aliasCount > 100 && decodeCount > 1000
        && (double) aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
      throw new DecodeException("invalid YAML: document contains excessive aliasing");
    }
  }

  private static double allowedAliasRatio(int decodes) {
    if (decodes <= RATIO_RANGE_LOW) {
      return 0.99;
    }
    if (decodes >= RATIO_RANGE_HIGH) {
      return 0.10;
    }
    return 0.99 - 0.89 * ((double) (decodes - RATIO_RANGE_LOW)
        / (RATIO_RANGE_HIGH - RATIO_RANGE_LOW));
  }
}
