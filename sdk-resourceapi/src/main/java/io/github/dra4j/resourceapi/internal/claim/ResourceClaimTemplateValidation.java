package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateSpec;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.SemanticEquality;
import io.github.dra4j.resourceapi.internal.meta.ObjectMetaRules;
import io.github.dra4j.resourceapi.internal.meta.ObjectMetaRules.NameFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * kube-apiserver's validation of a ResourceClaimTemplate (Kubernetes 1.36's {@code
 * ValidateResourceClaimTemplate} and {@code ValidateResourceClaimTemplateUpdate}): its metadata,
 * the metadata of the claims it makes ({@code spec.metadata}) and their spec ({@code spec.spec}),
 * which is checked like a claim's. Stateless.
 */
public final class ResourceClaimTemplateValidation {

  private static final FieldPath METADATA = FieldPath.root("metadata");
  private static final FieldPath SPEC = FieldPath.root("spec");

  private ResourceClaimTemplateValidation() {}

  /**
   * Validates a template being created.
   *
   * @param template the template
   * @param gates the API server's feature gates
   * @return the errors, empty if valid
   */
  public static List<FieldError> validate(ResourceClaimTemplate template, FeatureGates gates) {
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(gates, "gates");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMeta(template.getMetadata(),
        true, NameFormat.DNS_SUBDOMAIN, METADATA));
    ResourceClaimTemplateSpec spec = template.getSpec();
    errors.addAll(ObjectMetaRules.templateObjectMeta(spec == null ? null : spec.getMetadata(),
        SPEC.child("metadata")));
    errors.addAll(ResourceClaimValidation.spec(spec == null ? null : spec.getSpec(),
        SPEC.child("spec"), gates, false));
    return errors;
  }

  /**
   * Validates an update of a template: what may not change in its metadata, and that the spec did
   * not change (the only check of the spec on update).
   *
   * @param template the new template
   * @param old the stored template
   * @param gates the API server's feature gates
   * @return the errors, e.g. {@code spec: Invalid value: {...,"Spec":...}: field is immutable}
   */
  public static List<FieldError> validateUpdate(ResourceClaimTemplate template,
      ResourceClaimTemplate old, FeatureGates gates) {
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(old, "old");
    Objects.requireNonNull(gates, "gates");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMetaUpdate(
        template.getMetadata(), old.getMetadata(), METADATA));
    errors.addAll(SemanticEquality.immutable(template.getSpec(), old.getSpec(),
        () -> InternalSpecJson.templateSpec(template.getSpec()), SPEC));
    return errors;
  }
}
