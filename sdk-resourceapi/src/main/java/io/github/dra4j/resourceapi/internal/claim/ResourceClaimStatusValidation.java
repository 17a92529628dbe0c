package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.github.dra4j.resourceapi.FeatureGates;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Collections;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import io.github.dra4j.resourceapi.internal.field.SemanticEquality;
import io.github.dra4j.resourceapi.internal.meta.ObjectMetaRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * kube-apiserver's validation of an update of a ResourceClaim's {@code status} subresource
 * (ValidateResourceClaimStatusUpdate of Kubernetes 1.36): what the scheduler writes when it
 * allocates devices and reserves the claim for pods, and what drivers write about the devices
 * they prepared. It runs after the status strategy has put back the stored spec and metadata.
 * Stateless.
 */
public final class ResourceClaimStatusValidation {

  private ResourceClaimStatusValidation() {}

  /**
   * Validates a status update.
   *
   * <ul>
   *   <li>{@code metadata}: what may not change (ValidateObjectMetaUpdate);
   *   <li>{@code status.reservedFor}: at most 256 consumers, each with a resource, a name and a
   *       UID, no UID twice, none without an allocation, and none added once the claim is being
   *       deleted;
   *   <li>{@code status.devices}: see the device status rules;
   *   <li>{@code status.allocation}: a stored allocation may not change; a new one must be a
   *       valid allocation of the claim's requests.
   * </ul>
   *
   * @param claim the claim as it would be stored, not null
   * @param old the stored claim, not null
   * @param gates the feature gates (no status rule of Kubernetes 1.36 depends on one; fields
   *     behind a gate that is off are dropped before validation by the strategy)
   * @return the errors, in the server's order; empty if the update is valid
   */
  public static List<FieldError> validateStatusUpdate(ResourceClaim claim, ResourceClaim old,
      FeatureGates gates) {
    Objects.requireNonNull(claim, "claim");
    Objects.requireNonNull(old, "old");
    Objects.requireNonNull(gates, "gates");
    List<FieldError> errors = new ArrayList<>(ObjectMetaRules.objectMetaUpdate(
        metadata(claim), metadata(old), FieldPath.root("metadata")));
    RequestNames requestNames = RequestNames.of(claim.getSpec() == null ? null
        : claim.getSpec().getDevices());
    boolean deleted = metadata(claim).getDeletionTimestamp() != null;
    errors.addAll(status(status(claim), status(old), deleted, requestNames,
        FieldPath.root("status")));
    return errors;
  }

  private static List<FieldError> status(ResourceClaimStatus status, ResourceClaimStatus old,
      boolean deleted, RequestNames requestNames, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    FieldPath reservedForPath = path.child("reservedFor");
    List<ResourceClaimConsumerReference> reservedFor = status.getReservedFor();
    errors.addAll(Collections.set(reservedFor, ResourceLimits.RESERVED_FOR_MAX,
        ResourceClaimStatusValidation::consumer,
        consumer -> GoValues.typed(nullToEmpty(consumer.getUid())),
        reservedForPath));
    AllocationResult allocation = status.getAllocation();
    errors.addAll(DeviceStatusValidation.devices(status.getDevices(), allocation,
        path.child("devices")));

    if (reservedFor != null && !reservedFor.isEmpty()) {
      if (allocation == null) {
        errors.add(Errors.forbidden(reservedForPath,
            "may not be specified when `allocated` is not set"));
      } else if (deleted && addsConsumers(reservedFor, old.getReservedFor())) {
        // Consumers may go away while the claim is being deleted, but none may come.
        errors.add(Errors.forbidden(reservedForPath,
            "new entries may not be added while `deallocationRequested` or `deletionTimestamp`"
                + " are set"));
      }
    }

    AllocationResult stored = old.getAllocation();
    if (stored != null && allocation != null) {
      // A stored allocation is not checked again: the rules for new ones may have become
      // stricter since it was written.
      if (!SemanticEquality.equal(allocation, stored)) {
        errors.add(Errors.invalid(path.child("allocation"), AllocationJson.print(allocation),
            SemanticEquality.FIELD_IS_IMMUTABLE));
      }
    } else if (allocation != null) {
      errors.addAll(AllocationResultValidation.allocation(allocation, path.child("allocation"),
          requestNames));
    }
    return errors;
  }

  private static List<FieldError> consumer(ResourceClaimConsumerReference consumer,
      FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (isEmpty(consumer.getResource())) {
      errors.add(Errors.required(path.child("resource"), ""));
    }
    if (isEmpty(consumer.getName())) {
      errors.add(Errors.required(path.child("name"), ""));
    }
    if (isEmpty(consumer.getUid())) {
      errors.add(Errors.required(path.child("uid"), ""));
    }
    return errors;
  }

  /** Whether an entry is not among the stored ones, comparing all of its fields. */
  private static boolean addsConsumers(List<ResourceClaimConsumerReference> reservedFor,
      List<ResourceClaimConsumerReference> stored) {
    Set<List<String>> before = new HashSet<>();
    if (stored != null) {
      stored.forEach(consumer -> before.add(key(consumer)));
    }
    return reservedFor.stream().anyMatch(consumer -> !before.contains(key(consumer)));
  }

  private static List<String> key(ResourceClaimConsumerReference consumer) {
    return List.of(nullToEmpty(consumer.getApiGroup()), nullToEmpty(consumer.getResource()),
        nullToEmpty(consumer.getName()), nullToEmpty(consumer.getUid()));
  }

  private static ObjectMeta metadata(ResourceClaim claim) {
    return claim.getMetadata() == null ? new ObjectMeta() : claim.getMetadata();
  }

  private static ResourceClaimStatus status(ResourceClaim claim) {
    return claim.getStatus() == null ? new ResourceClaimStatus() : claim.getStatus();
  }

  private static boolean isEmpty(String value) {
    return value == null || value.isEmpty();
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
