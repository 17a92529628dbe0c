package io.github.dra4j.resourceapi.internal.meta;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.github.dra4j.core.name.NameFormats;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The API server's rules for {@code metadata}, as Kubernetes 1.36's core validation applies them
 * to {@code resource.k8s.io} objects: apimachinery's ValidateObjectMeta (or
 * ValidateObjectMetaWithOpts for device classes), ValidateObjectMetaUpdate and core's
 * ValidateTemplateObjectMeta, each followed by core's check of finalizer names. Stateless.
 */
public final class ObjectMetaRules {

  /** How an object's name is checked. */
  public enum NameFormat {
    /**
     * An RFC 1123 DNS subdomain ({@code NameIsDNSSubdomain}: slices, claims, templates, taint
     * rules), with generateName checked as a prefix.
     */
    DNS_SUBDOMAIN,
    /**
     * A long name as the declarative {@code validate.LongName} checks it (device classes, through
     * ValidateObjectMetaWithOpts): the length said in bytes, generateName not checked.
     */
    LONG_NAME
  }

  private ObjectMetaRules() {}

  /**
   * ValidateObjectMeta: name or generateName, namespace (required iff namespaced), generation,
   * labels, annotations, owner references, finalizers, managed fields, then core's finalizer
   * names.
   *
   * @param meta the metadata, may be null (as empty)
   * @param namespaced whether the kind is namespaced
   * @param name how the name is checked
   * @param path {@code metadata}
   * @return the errors
   */
  public static List<FieldError> objectMeta(ObjectMeta meta, boolean namespaced, NameFormat name,
      FieldPath path) {
    ObjectMeta m = meta == null ? new ObjectMeta() : meta;
    List<FieldError> errors = new ArrayList<>();
    String objectName = CoreRules.orEmpty(m.getName());
    String generateName = CoreRules.orEmpty(m.getGenerateName());
    if (name == NameFormat.LONG_NAME) {
      if (!generateName.isEmpty() && objectName.isEmpty()) {
        errors.add(Errors.internal(path.child("name"), "generateName was specified ("
            + GoValues.quote(generateName) + "), but no name was generated"));
      }
      if (objectName.isEmpty()) {
        errors.add(Errors.required(path.child("name"), "name or generateName is required"));
      } else {
        errors.addAll(CoreRules.invalidEach(path.child("name"), objectName,
            NameFormats.longName(objectName)));
      }
    } else {
      if (!generateName.isEmpty()) {
        errors.addAll(CoreRules.invalidEach(path.child("generateName"), generateName,
            NameFormats.dns1123Subdomain(maskTrailingDash(generateName))));
      }
      if (objectName.isEmpty()) {
        errors.add(Errors.required(path.child("name"), "name or generateName is required"));
      } else {
        errors.addAll(CoreRules.dnsSubdomain(objectName, path.child("name")));
      }
    }
    String namespace = CoreRules.orEmpty(m.getNamespace());
    if (namespaced) {
      if (namespace.isEmpty()) {
        errors.add(Errors.required(path.child("namespace"), ""));
      } else {
        errors.addAll(CoreRules.dnsLabel(namespace, path.child("namespace")));
      }
    } else if (!namespace.isEmpty()) {
      errors.add(Errors.forbidden(path.child("namespace"), "not allowed on this type"));
    }
    Long generation = m.getGeneration();
    if (generation != null && generation < 0) {
      errors.add(Errors.invalid(path.child("generation"), generation,
          "must be greater than or equal to 0"));
    }
    errors.addAll(MetaFields.labels(m.getLabels(), path.child("labels")));
    errors.addAll(MetaFields.annotations(m.getAnnotations(), path.child("annotations")));
    errors.addAll(MetaFields.ownerReferences(m.getOwnerReferences(),
        path.child("ownerReferences")));
    errors.addAll(MetaFields.finalizers(m.getFinalizers(), path.child("finalizers")));
    errors.addAll(MetaFields.managedFields(m.getManagedFields(), path.child("managedFields")));
    errors.addAll(MetaFields.kubeFinalizers(m.getFinalizers(), path.child("finalizers")));
    return errors;
  }

  /**
   * ValidateObjectMetaUpdate: no new finalizers while the object is being deleted, a resource
   * version, generation not decremented, name, namespace, uid, creationTimestamp,
   * deletionTimestamp and deletionGracePeriodSeconds unchanged, then the new labels, annotations,
   * owner references and managed fields, and core's finalizer names.
   *
   * @param meta the new metadata, may be null (as empty)
   * @param old the stored metadata, may be null (as empty)
   * @param path {@code metadata}
   * @return the errors
   */
  public static List<FieldError> objectMetaUpdate(ObjectMeta meta, ObjectMeta old,
      FieldPath path) {
    ObjectMeta m = meta == null ? new ObjectMeta() : meta;
    ObjectMeta o = old == null ? new ObjectMeta() : old;
    List<FieldError> errors = new ArrayList<>();
    if (!Timestamps.isZero(o.getDeletionTimestamp())) {
      Set<String> added = new TreeSet<>(orEmptyList(m.getFinalizers()));
      added.removeAll(new LinkedHashSet<>(orEmptyList(o.getFinalizers())));
      if (!added.isEmpty()) {
        errors.add(Errors.forbidden(path.child("finalizers"), "no new finalizers can be added if"
            + " the object is being deleted, found new finalizers "
            + GoValues.stringSlice(added)));
      }
    }
    if (CoreRules.orEmpty(m.getResourceVersion()).isEmpty()) {
      errors.add(Errors.invalid(path.child("resourceVersion"), "",
          "must be specified for an update"));
    }
    long generation = m.getGeneration() == null ? 0 : m.getGeneration();
    long oldGeneration = o.getGeneration() == null ? 0 : o.getGeneration();
    if (generation < oldGeneration) {
      errors.add(Errors.invalid(path.child("generation"), generation, "must not be decremented"));
    }
    immutable(errors, path.child("name"), m.getName(), o.getName(), false);
    immutable(errors, path.child("namespace"), m.getNamespace(), o.getNamespace(), false);
    immutable(errors, path.child("uid"), m.getUid(), o.getUid(), true);
    if (!Timestamps.equal(m.getCreationTimestamp(), o.getCreationTimestamp())) {
      errors.add(Errors.invalid(path.child("creationTimestamp"),
          Timestamps.print(m.getCreationTimestamp()), "field is immutable"));
    }
    if (!Timestamps.equal(m.getDeletionTimestamp(), o.getDeletionTimestamp())) {
      errors.add(Errors.invalid(path.child("deletionTimestamp"),
          Timestamps.print(m.getDeletionTimestamp()), "field is immutable"));
    }
    if (!Objects.equals(m.getDeletionGracePeriodSeconds(), o.getDeletionGracePeriodSeconds())) {
      Long grace = m.getDeletionGracePeriodSeconds();
      errors.add(Errors.invalid(path.child("deletionGracePeriodSeconds"),
          grace == null ? new GoValues.Raw("null") : grace, "field is immutable"));
    }
    errors.addAll(MetaFields.labels(m.getLabels(), path.child("labels")));
    errors.addAll(MetaFields.annotations(m.getAnnotations(), path.child("annotations")));
    errors.addAll(MetaFields.ownerReferences(m.getOwnerReferences(),
        path.child("ownerReferences")));
    errors.addAll(MetaFields.managedFields(m.getManagedFields(), path.child("managedFields")));
    errors.addAll(MetaFields.kubeFinalizers(m.getFinalizers(), path.child("finalizers")));
    return errors;
  }

  /**
   * ValidateTemplateObjectMeta: annotations and labels, and every other metadata field refused
   * with {@code Forbidden: cannot be set} (named as Go lower-cases its field names, so the uid is
   * {@code uID}). Empty lists and maps count as unset (fabric8 cannot tell them from absent ones).
   *
   * @param meta the metadata, may be null
   * @param path e.g. {@code spec.metadata}
   * @return the errors
   */
  public static List<FieldError> templateObjectMeta(ObjectMeta meta, FieldPath path) {
    if (meta == null) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    errors.addAll(MetaFields.annotations(meta.getAnnotations(), path.child("annotations")));
    errors.addAll(MetaFields.labels(meta.getLabels(), path.child("labels")));
    Object[][] others = {
        {"name", meta.getName()}, {"generateName", meta.getGenerateName()},
        {"namespace", meta.getNamespace()}, {"selfLink", meta.getSelfLink()},
        {"uID", meta.getUid()}, {"resourceVersion", meta.getResourceVersion()},
        {"generation", meta.getGeneration()},
        {"creationTimestamp", Timestamps.isZero(meta.getCreationTimestamp()) ? null : "set"},
        {"deletionTimestamp", meta.getDeletionTimestamp()},
        {"deletionGracePeriodSeconds", meta.getDeletionGracePeriodSeconds()},
        {"ownerReferences", meta.getOwnerReferences()}, {"finalizers", meta.getFinalizers()},
        {"managedFields", meta.getManagedFields()}};
    for (Object[] field : others) {
      if (isSet(field[0], field[1])) {
        errors.add(Errors.forbidden(path.child((String) field[0]), "cannot be set"));
      }
    }
    return errors;
  }

  /** NameIsDNSSubdomain's prefix masking: a trailing dash and the character before it. */
  private static String maskTrailingDash(String name) {
    if (!name.endsWith("-")) {
      return name;
    }
    // Go slices off two bytes (and panics for a lone "-"; here it is checked as "a").
    return name.length() < 2 ? "a" : name.substring(0, name.length() - 2) + "a";
  }

  private static void immutable(List<FieldError> errors, FieldPath path, String value,
      String old, boolean typed) {
    String now = CoreRules.orEmpty(value);
    if (!now.equals(CoreRules.orEmpty(old))) {
      errors.add(Errors.invalid(path, typed ? GoValues.typed(now) : now, "field is immutable"));
    }
  }

  private static boolean isSet(Object name, Object value) {
    if (value == null) {
      return false;
    }
    if (value instanceof String text) {
      return !text.isEmpty();
    }
    if (value instanceof Long number) {
      return number != 0 || "deletionGracePeriodSeconds".equals(name);
    }
    if (value instanceof List<?> list) {
      return !list.isEmpty();
    }
    if (value instanceof Map<?, ?> map) {
      return !map.isEmpty();
    }
    return true;
  }

  private static List<String> orEmptyList(List<String> list) {
    return list == null ? List.of() : list;
  }
}
