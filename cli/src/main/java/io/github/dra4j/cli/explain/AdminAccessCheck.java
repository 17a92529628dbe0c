package io.github.dra4j.cli.explain;

import static io.github.dra4j.cli.explain.AllocatedClaimChecks.nonNull;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cli.explain.ClaimReport.Finding;
import java.util.List;
import java.util.Map;

/**
 * The namespace label that admin access needs: the API server admits a claim (or claim template)
 * with an {@code adminAccess} request only in a namespace labelled {@code
 * resource.kubernetes.io/admin-access: "true"}, so a claim from a template in an unlabelled
 * namespace is refused, and so is any update of an existing one after the label went away.
 * Stateless.
 */
final class AdminAccessCheck {

  /** The label admission looks for on the claim's namespace. */
  static final String LABEL = "resource.kubernetes.io/admin-access";

  private AdminAccessCheck() {}

  /**
   * Checks the claim's requests that ask for admin access against its namespace.
   *
   * @param claim the claim, or a template's stand-in
   * @param fromTemplate whether the claim is a template's stand-in
   * @param state the cluster, with the target's namespace
   * @return one {@code adminAccess} finding, or none when no request asks for admin access
   */
  static List<Finding> check(ResourceClaim claim, boolean fromTemplate, ClusterState state) {
    List<DeviceRequest> requests = claim.getSpec() == null || claim.getSpec().getDevices() == null
        ? List.of() : nonNull(claim.getSpec().getDevices().getRequests());
    List<String> admin = requests.stream()
        .filter(r -> r.getExactly() != null && Boolean.TRUE.equals(r.getExactly().getAdminAccess()))
        .map(DeviceRequest::getName).toList();
    if (admin.isEmpty()) {
      return List.of();
    }
    String namespace = claim.getMetadata().getNamespace();
    String asks = (admin.size() == 1 ? "request " : "requests ") + String.join(", ", admin)
        + (admin.size() == 1 ? " asks" : " ask") + " for admin access";
    if (state.namespace() == null) {
      return List.of(new Finding("adminAccess", false, asks + "; cannot check namespace "
          + namespace + " for the label " + LABEL + ": \"true\": " + state.namespaceError()));
    }
    Map<String, String> labels = state.namespace().getMetadata().getLabels();
    if (labels != null && "true".equals(labels.get(LABEL))) {
      return List.of(new Finding("adminAccess", true, asks + "; namespace " + namespace
          + " has the label " + LABEL + ": \"true\""));
    }
    return List.of(new Finding("adminAccess", false, asks + ", but namespace " + namespace
        + " lacks the label " + LABEL + ": \"true\": the API server refuses "
        + (fromTemplate ? "the claim a pod would get from this template"
            : "to create or update such a claim there")
        + " (kubectl label namespace " + namespace + " " + LABEL + "=true)"));
  }
}
