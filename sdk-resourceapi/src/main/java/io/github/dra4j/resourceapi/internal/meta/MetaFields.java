package io.github.dra4j.resourceapi.internal.meta;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.github.dra4j.core.name.GoStrings;
import io.github.dra4j.core.name.NameFormats;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The checks of single metadata fields that creation and update share (apimachinery {@code
 * api/validation/objectmeta.go}, metav1 validation, core's finalizer rule). Stateless.
 */
final class MetaFields {

  /** TotalAnnotationSizeLimitB: keys and values together, in bytes. */
  static final int TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
  /** FieldManagerMaxLength. */
  static final int FIELD_MANAGER_MAX_LENGTH = 128;
  /** MaxSubresourceNameLength. */
  static final int SUBRESOURCE_MAX_LENGTH = 256;

  private static final Set<String> STANDARD_FINALIZERS = Set.of("kubernetes", "orphan",
      "foregroundDeletion");

  private MetaFields() {}

  /** metav1 ValidateLabels: key errors at the map's path, value errors too. */
  static List<FieldError> labels(Map<String, String> labels, FieldPath path) {
    if (labels == null || labels.isEmpty()) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    labels.forEach((key, value) -> {
      errors.addAll(CoreRules.labelName(key, path));
      errors.addAll(CoreRules.invalidEach(path, CoreRules.orEmpty(value),
          NameFormats.labelValue(CoreRules.orEmpty(value))));
    });
    return errors;
  }

  /** ValidateAnnotations: keys as lower-cased qualified names, then the total size. */
  static List<FieldError> annotations(Map<String, String> annotations, FieldPath path) {
    if (annotations == null || annotations.isEmpty()) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    long size = 0;
    for (Map.Entry<String, String> entry : annotations.entrySet()) {
      String key = CoreRules.orEmpty(entry.getKey());
      errors.addAll(CoreRules.invalidEach(path, key,
          NameFormats.qualifiedName(key.toLowerCase(Locale.ROOT))));
      size += NameFormats.utf8Length(key)
          + NameFormats.utf8Length(CoreRules.orEmpty(entry.getValue()));
    }
    if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
      errors.add(Errors.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    return errors;
  }

  /**
   * ValidateOwnerReferences: each reference's errors at the list's path (no index), a banned
   * owner kind, and at most one controller.
   */
  static List<FieldError> ownerReferences(List<OwnerReference> references, FieldPath path) {
    if (references == null || references.isEmpty()) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    String firstController = "";
    for (OwnerReference reference : references) {
      OwnerReference ref = reference == null ? new OwnerReference() : reference;
      errors.addAll(ownerReference(ref, path));
      if (Boolean.TRUE.equals(ref.getController())) {
        String current = CoreRules.orEmpty(ref.getKind()) + "/" + CoreRules.orEmpty(ref.getName());
        if (!firstController.isEmpty()) {
          errors.add(Errors.invalid(path, GoValues.json(ownerReferencesJson(references)),
              "Only one reference can have Controller set to true. Found \"true\" in references"
                  + " for " + firstController + " and " + current));
        } else {
          firstController = current;
        }
      }
    }
    return errors;
  }

  /** ValidateFinalizers: qualified names at the list's path, and not orphan with foreground. */
  static List<FieldError> finalizers(List<String> finalizers, FieldPath path) {
    if (finalizers == null || finalizers.isEmpty()) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    for (String finalizer : finalizers) {
      errors.addAll(CoreRules.labelName(finalizer, path));
    }
    if (finalizers.contains("orphan") && finalizers.contains("foregroundDeletion")) {
      errors.add(Errors.invalid(path, GoValues.json(finalizers),
          "finalizer orphan and foregroundDeletion cannot be both set"));
    }
    return errors;
  }

  /** Core's validateKubeFinalizerName for each finalizer, at its index. */
  static List<FieldError> kubeFinalizers(List<String> finalizers, FieldPath path) {
    if (finalizers == null || finalizers.isEmpty()) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    for (int i = 0; i < finalizers.size(); i++) {
      String finalizer = CoreRules.orEmpty(finalizers.get(i));
      if (finalizer.indexOf('/') < 0 && !STANDARD_FINALIZERS.contains(finalizer)) {
        errors.add(Errors.invalid(path.index(i), finalizer,
            "name is neither a standard finalizer name nor is it fully qualified"));
      }
    }
    return errors;
  }

  /** metav1 ValidateManagedFields: operation, fieldsType, manager and subresource. */
  static List<FieldError> managedFields(List<ManagedFieldsEntry> entries, FieldPath path) {
    if (entries == null || entries.isEmpty()) {
      return List.of();
    }
    List<FieldError> errors = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      ManagedFieldsEntry entry = entries.get(i) == null ? new ManagedFieldsEntry()
          : entries.get(i);
      FieldPath itemPath = path.index(i);
      String operation = CoreRules.orEmpty(entry.getOperation());
      if (!operation.equals("Apply") && !operation.equals("Update")) {
        errors.add(Errors.invalid(itemPath.child("operation"), GoValues.typed(operation),
            "must be `Apply` or `Update`"));
      }
      String fieldsType = CoreRules.orEmpty(entry.getFieldsType());
      if (!fieldsType.isEmpty() && !fieldsType.equals("FieldsV1")) {
        errors.add(Errors.invalid(itemPath.child("fieldsType"), fieldsType, "must be `FieldsV1`"));
      }
      errors.addAll(fieldManager(CoreRules.orEmpty(entry.getManager()),
          itemPath.child("manager")));
      if (NameFormats
          .utf8Length(CoreRules.orEmpty(entry.getSubresource())) > SUBRESOURCE_MAX_LENGTH) {
        errors.add(Errors.tooLong(itemPath.child("subresource"), SUBRESOURCE_MAX_LENGTH));
      }
    }
    return errors;
  }

  /** ValidateFieldManager: length, then each non-printable rune with its byte position. */
  private static List<FieldError> fieldManager(String manager, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (NameFormats.utf8Length(manager) > FIELD_MANAGER_MAX_LENGTH) {
      errors.add(Errors.tooLong(path, FIELD_MANAGER_MAX_LENGTH));
    }
    int bytePosition = 0;
    for (int i = 0; i < manager.length();) {
      int cp = manager.codePointAt(i);
      int width = Character.charCount(cp);
      if (Character.isSurrogate(manager.charAt(i))) {
        cp = 0xFFFD;
      }
      if (!GoStrings.isPrintable(cp)) {
        errors.add(Errors.invalid(path, manager, String.format("invalid character U+%04X (at"
            + " position %d)", cp, bytePosition)));
      }
      bytePosition += NameFormats.utf8Length(manager.substring(i, i + width));
      i += width;
    }
    return errors;
  }

  private static List<FieldError> ownerReference(OwnerReference ref, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    String apiVersion = CoreRules.orEmpty(ref.getApiVersion());
    String[] groupVersion = groupVersion(apiVersion);
    String kind = CoreRules.orEmpty(ref.getKind());
    if (groupVersion[1].isEmpty()) {
      errors.add(Errors.invalid(path.child("apiVersion"), apiVersion,
          "version must not be empty"));
    }
    if (kind.isEmpty()) {
      errors.add(Errors.invalid(path.child("kind"), kind, "must not be empty"));
    }
    String name = CoreRules.orEmpty(ref.getName());
    if (name.isEmpty()) {
      errors.add(Errors.invalid(path.child("name"), name, "must not be empty"));
    }
    String uid = CoreRules.orEmpty(ref.getUid());
    if (uid.isEmpty()) {
      errors.add(Errors.invalid(path.child("uid"), GoValues.typed(uid), "must not be empty"));
    }
    if (groupVersion[0].isEmpty() && groupVersion[1].equals("v1") && kind.equals("Event")) {
      errors.add(Errors.invalid(path, GoValues.json(ownerReferenceJson(ref)),
          "/v1, Kind=Event is disallowed from being an owner"));
    }
    return errors;
  }

  /** schema.ParseGroupVersion as FromAPIVersionAndKind uses it: {group, version}. */
  private static String[] groupVersion(String apiVersion) {
    if (apiVersion.isEmpty() || apiVersion.equals("/")) {
      return new String[] {"", ""};
    }
    int slash = apiVersion.indexOf('/');
    if (slash < 0) {
      return new String[] {"", apiVersion};
    }
    if (apiVersion.indexOf('/', slash + 1) >= 0) {
      return new String[] {"", ""}; // unparseable: FromAPIVersionAndKind keeps only the kind
    }
    return new String[] {apiVersion.substring(0, slash), apiVersion.substring(slash + 1)};
  }

  private static List<Object> ownerReferencesJson(List<OwnerReference> references) {
    List<Object> out = new ArrayList<>();
    for (OwnerReference ref : references) {
      out.add(ownerReferenceJson(ref == null ? new OwnerReference() : ref));
    }
    return out;
  }

  /** metav1.OwnerReference as json.Marshal writes it (its json tags, omitempty pointers). */
  private static GoValues.Struct ownerReferenceJson(OwnerReference ref) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("apiVersion", CoreRules.orEmpty(ref.getApiVersion()));
    fields.put("kind", CoreRules.orEmpty(ref.getKind()));
    fields.put("name", CoreRules.orEmpty(ref.getName()));
    fields.put("uid", CoreRules.orEmpty(ref.getUid()));
    if (ref.getController() != null) {
      fields.put("controller", ref.getController());
    }
    if (ref.getBlockOwnerDeletion() != null) {
      fields.put("blockOwnerDeletion", ref.getBlockOwnerDeletion());
    }
    return new GoValues.Struct(fields);
  }
}
