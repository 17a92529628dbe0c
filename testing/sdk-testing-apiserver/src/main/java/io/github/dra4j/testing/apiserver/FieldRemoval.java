package io.github.dra4j.testing.apiserver;

import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Removes the field a dotted path with {@code []} array steps reaches. Immutable. */
final class FieldRemoval implements StoredObjectTransformer {

  private final String path;
  private final List<String> segments;

  FieldRemoval(String path) {
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException("field path must not be empty");
    }
    this.path = path;
    this.segments = List.of(path.split("\\.", -1));
    for (String segment : segments) {
      if (segment.isEmpty() || segment.equals("[]")) {
        throw new IllegalArgumentException("field path \"" + path + "\" has an empty segment");
      }
    }
  }

  @Override
  public ObjectNode transform(ObjectNode object) {
    remove(object, 0);
    return object;
  }

  private void remove(JsonNode node, int index) {
    String segment = segments.get(index);
    boolean array = segment.endsWith("[]");
    String name = array ? segment.substring(0, segment.length() - 2) : segment;
    if (!(node instanceof ObjectNode objectNode) || !objectNode.has(name)) {
      return;
    }
    if (index == segments.size() - 1) {
      objectNode.remove(name);
      return;
    }
    JsonNode child = objectNode.get(name);
    if (array) {
      if (child.isArray()) {
        for (JsonNode element : child) {
          remove(element, index + 1);
        }
      }
    } else {
      remove(child, index + 1);
    }
  }

  @Override
  public String toString() {
    return "removeField(" + path + ")";
  }
}
