package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
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
 * kube-apiserver's validation of a ResourceClaim's metadata and spec (Kubernetes 1.36's {@code
 * ValidateResourceClaim} and {@code ValidateResourceClaimUpdate}); the status rules are {@code
 * ResourceClaimStatusValidation}'s. Stateless.
 */
public final class ResourceClaimValidation {

  private static final FieldPath METADATA = FieldPath.root("metadata");
  private static final FieldPath SPEC = FieldPath.root("spec");

  private ResourceClaimValidation() {}

  /**
   * Validates a claim being created: its metadata (a namespaced object named by a DNS subdomain)
   * and its spec.
   *
   * @param claim the claim
   * @param gates the API server's feature gates
   * @return the errors, empty if valid
   */
  public static List<FieldError> validate(ResourceClaim claim, FeatureGates gates) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(gates, "gates");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMeta(claim.getMetadata(), true,
        NameFormat.DNS_SUBDOMAIN, METADATA));
    errors.addAll(spec(claim.getSpec(), SPEC, gates, false));
    return errors;
  }

  /**
   * Validates an update of a claim: its metadata, what may not change in it, and that the spec did
   * not change (the only check of the spec on update: a user cannot fix anything else in it).
   *
   * @param claim the new claim
   * @param old the stored claim
   * @param gates the API server's feature gates
   * @return the errors, e.g. {@code spec: Invalid value: {"Devices":...}: field is immutable}
   */
  public static List<FieldError> validateUpdate(ResourceClaim claim, ResourceClaim old,
      FeatureGates gates) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(old, "old");
    Objects.requireNonNull(gates, "gates");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMeta(claim.getMetadata(), true,
        NameFormat.DNS_SUBDOMAIN, METADATA));
    errors.addAll(ObjectMetaRules.objectMetaUpdate(claim.getMetadata(), old.getMetadata(),
        METADATA));
    errors.addAll(SemanticEquality.immutable(claim.getSpec(), old.getSpec(),
        () -> InternalSpecJson.claimSpec(claim.getSpec()), SPEC));
    return errors;
  }

  /**
   * Checks a claim spec (Go's {@code validateResourceClaimSpec}).
   *
   * @param spec the spec, may be null
   * @param path {@code spec}, or {@code spec.spec} in a template
   * @param gates the API server's feature gates
   * @param stored whether the spec was stored before
   * @return the errors
   */
  static List<FieldError> spec(ResourceClaimSpec spec, FieldPath path, FeatureGates gates,
      boolean stored) {
    return DeviceClaimRules.deviceClaim(spec == null ? null : spec.getDevices(),
        path.child("devices"), gates, stored);
  }
}
