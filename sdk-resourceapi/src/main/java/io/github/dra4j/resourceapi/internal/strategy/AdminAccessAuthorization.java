package io.github.dra4j.resourceapi.internal.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.List;
import java.util.Map;

/**
 * {@code pkg/registry/resource/utils.go}: admin access to devices is only granted in namespaces
 * labelled {@code resource.kubernetes.io/admin-access: "true"}. Checked by the ResourceClaim and
 * ResourceClaimTemplate strategies on create (not on update: the spec is immutable) and by the
 * claim status strategy when an allocation first grants admin access. Runs before validation;
 * its errors come first.
 */
public final class AdminAccessAuthorization {

  /** The namespace label that allows admin access. */
  public static final String ADMIN_NAMESPACE_LABEL = "resource.kubernetes.io/admin-access";

  private AdminAccessAuthorization() {}

  /**
   * Checks the requests of a claim or template spec. The path is {@code
   * spec.devices.requests[i].exactly.adminAccess} of the first request asking for admin access,
   * also for templates (the server builds it the same way).
   *
   * @param requests the requests
   * @param namespace the object's namespace
   * @param namespaceLabels the labels of that namespace, or null if it cannot be read
   * @return one Forbidden or Internal error, or none
   */
  public static List<FieldError> forRequests(List<DeviceRequest> requests, String namespace,
      Map<String, String> namespaceLabels) {
    FieldPath path = null;
    for (int i = 0; requests != null && i < requests.size(); i++) {
      DeviceRequest request = requests.get(i);
      if (request != null && request.getExactly() != null
          && Boolean.TRUE.equals(request.getExactly().getAdminAccess())) {
        path = FieldPath.root("spec", "devices", "requests").index(i)
            .child("exactly", "adminAccess");
        break;
      }
    }
    return check(path, namespace, namespaceLabels);
  }

  /**
   * Checks a status update: only when the stored allocation grants no admin access and the new
   * one does ({@code status.allocation.devices.results[i].adminAccess}).
   *
   * @param results the new allocation results
   * @param oldResults the stored allocation results
   * @param namespace the claim's namespace
   * @param namespaceLabels the labels of that namespace, or null if it cannot be read
   * @return one Forbidden or Internal error, or none
   */
  public static List<FieldError> forStatus(List<DeviceRequestAllocationResult> results,
      List<DeviceRequestAllocationResult> oldResults, String namespace,
      Map<String, String> namespaceLabels) {
    if (firstAdmin(oldResults) >= 0) {
      return List.of();
    }
    int index = firstAdmin(results);
    FieldPath path = index < 0 ? null : FieldPath.root("status", "allocation", "devices",
        "results").index(index).child("adminAccess");
    return check(path, namespace, namespaceLabels);
  }

  private static int firstAdmin(List<DeviceRequestAllocationResult> results) {
    for (int i = 0; results != null && i < results.size(); i++) {
      if (results.get(i) != null && Boolean.TRUE.equals(results.get(i).getAdminAccess())) {
        return i;
      }
    }
    return -1;
  }

  private static List<FieldError> check(FieldPath path, String namespace,
      Map<String, String> namespaceLabels) {
    if (path == null) {
      return List.of();
    }
    if (namespaceLabels == null) {
      return List.of(Errors.internal(path, "could not retrieve namespace to verify admin access: "
          + "namespaces \"" + namespace + "\" not found"));
    }
    if (!"true".equals(namespaceLabels.get(ADMIN_NAMESPACE_LABEL))) {
      return List.of(Errors.forbidden(path, "admin access to devices requires the `"
          + ADMIN_NAMESPACE_LABEL + ": true` label on the containing namespace"));
    }
    return List.of();
  }
}
