package io.github.dra4j.testing.apiserver.internal.catalog;

import io.github.dra4j.testing.apiserver.GroupVersionResource;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * What the server knows about one resource: its kind, whether it is namespaced and which fields a
 * field selector may use, with how to read each of them from a stored object. Immutable.
 *
 * @param gvr the resource
 * @param kind the kind of its objects, e.g. {@code ResourceSlice}; null if unknown
 * @param namespaced whether objects live in namespaces
 * @param selectableFields field selector keys mapped to how the value is read; an absent field
 *     reads as the empty string, as in the real API server
 */
public record ResourceInfo(
    GroupVersionResource gvr,
    String kind,
    boolean namespaced,
    Map<String, Function<JsonNode, String>> selectableFields) {

  /**
   * Checks the resource and copies the field map.
   *
   * @param gvr the resource this entry describes; not null
   * @param kind the kind of its objects, e.g. {@code ResourceSlice}; null if unknown, then lists
   *     are of kind {@code List}
   * @param namespaced whether objects live in namespaces (false for cluster-scoped resources)
   * @param selectableFields field selector keys (e.g. {@code spec.nodeName}) mapped to how the
   *     value is read from a stored object; copied, no null keys or values. A reader returns the
   *     empty string for an absent field.
   * @throws NullPointerException if {@code gvr}, the map, or a key or value in it is null
   */
  public ResourceInfo {
    Objects.requireNonNull(gvr, "gvr");
    selectableFields = Map.copyOf(selectableFields);
  }

  /**
   * Returns the field selector keys this resource supports.
   *
   * @return the keys, e.g. {@code metadata.name}, {@code spec.nodeName}
   */
  public Set<String> fieldNames() {
    return selectableFields.keySet();
  }

  /**
   * Reads a selectable field of an object.
   *
   * @param field a key from {@link #fieldNames()}
   * @param object the stored object
   * @return the value; empty string when the field is not set
   * @throws IllegalArgumentException if the field is not selectable for this resource
   */
  public String fieldValue(String field, JsonNode object) {
    Function<JsonNode, String> reader = selectableFields.get(field);
    if (reader == null) {
      throw new IllegalArgumentException("field label not supported: " + field);
    }
    return reader.apply(object);
  }

  /**
   * Returns the kind of a list of these objects.
   *
   * @return {@code <Kind>List}, or {@code List} if the kind is unknown
   */
  public String listKind() {
    return kind == null ? "List" : kind + "List";
  }
}
