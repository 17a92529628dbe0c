package io.github.dra4j.testing.apiserver.internal.dispatch;

import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON merge patch (RFC 7386), as a real API server applies it: objects merge key by key, a
 * {@code null} removes a key, anything else (arrays included) replaces what was there. The
 * fabric8 store's own merge appends array elements instead, so the dispatcher applies merge
 * patches here. Stateless.
 */
final class MergePatch {

  private MergePatch() {}

  /**
   * Applies a merge patch.
   *
   * @param target the document to patch; not modified
   * @param patch the merge patch
   * @return the patched document (a new tree where anything changed)
   */
  static JsonNode apply(JsonNode target, JsonNode patch) {
    if (!patch.isObject()) {
      return patch;
    }
    ObjectNode result = target != null && target.isObject()
        ? ((ObjectNode) target).deepCopy()
        : JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> field : patch.properties()) {
      if (field.getValue().isNull()) {
        result.remove(field.getKey());
      } else {
        result.set(field.getKey(), apply(result.get(field.getKey()), field.getValue()));
      }
    }
    return result;
  }
}
