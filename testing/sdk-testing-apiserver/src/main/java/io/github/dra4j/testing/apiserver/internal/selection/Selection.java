package io.github.dra4j.testing.apiserver.internal.selection;

import io.github.dra4j.testing.apiserver.internal.catalog.ResourceInfo;
import tools.jackson.databind.JsonNode;

/**
 * Which objects of one resource a list, watch or delete-collection request addresses: optional
 * namespace, label selector and field selector. Immutable.
 *
 * @param resource the resource
 * @param namespace the namespace from the path, or null for all namespaces
 * @param labels the label selector
 * @param fields the field selector
 */
public record Selection(
    ResourceInfo resource, String namespace, LabelSelector labels, FieldSelector fields) {

  /**
   * Parses the selectors of a request.
   *
   * @param resource the resource
   * @param namespace the namespace from the path, or null
   * @param labelSelector the {@code labelSelector} query parameter, or null
   * @param fieldSelector the {@code fieldSelector} query parameter, or null
   * @return the selection
   * @throws InvalidSelectorException if a selector is malformed or names an unsupported field
   */
  public static Selection parse(
      ResourceInfo resource, String namespace, String labelSelector, String fieldSelector) {
    return new Selection(
        resource,
        namespace,
        LabelSelector.parse(labelSelector),
        FieldSelector.parse(fieldSelector, resource));
  }

  /**
   * Tells whether an object is selected.
   *
   * @param object the stored object; null never matches
   * @return true if the namespace (when given), the labels and the fields all match
   */
  public boolean matches(JsonNode object) {
    if (object == null) {
      return false;
    }
    if (namespace != null
        && !namespace.equals(object.path("metadata").path("namespace").asString(""))) {
      return false;
    }
    return labels.matches(object) && fields.matches(object, resource);
  }
}
