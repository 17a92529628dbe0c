package io.github.dra4j.resourceapi.internal.meta;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.List;

/**
 * The API server's rules for {@code metadata} (STUB: signatures fixed, bodies to be written).
 */
public final class ObjectMetaRules {

  /** How an object's name is checked. */
  public enum NameFormat {
    /** An RFC 1123 DNS subdomain (slices, claims, templates, taint rules). */
    DNS_SUBDOMAIN,
    /** A long name: a DNS subdomain as the declarative rules check it (device classes). */
    LONG_NAME
  }

  private ObjectMetaRules() {}

  /**
   * ValidateObjectMeta: name or generateName, namespace (required iff namespaced), labels,
   * annotations, owner references, finalizers, managed fields.
   *
   * @param meta the metadata, may be null
   * @param namespaced whether the kind is namespaced
   * @param name how the name is checked
   * @param path {@code metadata}
   * @return the errors
   */
  public static List<FieldError> objectMeta(ObjectMeta meta, boolean namespaced, NameFormat name,
      FieldPath path) {
    return List.of();
  }

  /**
   * ValidateObjectMetaUpdate: what may not change (name, namespace, uid, creationTimestamp, ...)
   * and the rules of the new metadata.
   *
   * @param meta the new metadata
   * @param old the stored metadata
   * @param path {@code metadata}
   * @return the errors
   */
  public static List<FieldError> objectMetaUpdate(ObjectMeta meta, ObjectMeta old,
      FieldPath path) {
    return List.of();
  }

  /**
   * ValidateTemplateObjectMeta: the metadata of a template's object (labels and annotations).
   *
   * @param meta the metadata, may be null
   * @param path e.g. {@code spec.metadata}
   * @return the errors
   */
  public static List<FieldError> templateObjectMeta(ObjectMeta meta, FieldPath path) {
    return List.of();
  }
}
