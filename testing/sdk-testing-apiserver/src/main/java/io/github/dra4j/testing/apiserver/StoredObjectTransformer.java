package io.github.dra4j.testing.apiserver;

import tools.jackson.databind.node.ObjectNode;

/**
 * Changes an object on its way into storage, the way a real API server drops the fields of a
 * disabled feature gate. The server applies the transformer to every state it stores for the
 * registered resource (create, update, patch) and to the object it returns from that write, so a
 * client sees exactly what was stored.
 *
 * <p>Transformers must be pure and idempotent: the server may apply one more than once to the
 * same state.
 */
@FunctionalInterface
public interface StoredObjectTransformer {

  /**
   * Transforms an object.
   *
   * @param object a private copy of the object; the transformer may modify it in place
   * @return the object to store, usually {@code object} itself
   */
  ObjectNode transform(ObjectNode object);

  /**
   * Returns a transformer that removes one field wherever a path reaches it. Path segments are
   * separated by dots; a segment ending in {@code []} descends into every element of that array.
   * Example: {@code spec.devices[].taints} removes the taints of every device, as a server
   * without the {@code DRADeviceTaints} feature does.
   *
   * @param path the path of the field to remove
   * @return the transformer
   * @throws IllegalArgumentException if the path is empty or has an empty segment
   */
  static StoredObjectTransformer removeField(String path) {
    return new FieldRemoval(path);
  }
}
