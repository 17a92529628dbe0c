package io.github.dra4j.cli.explain;

import java.util.List;

/**
 * What {@code dra4j explain} found about one claim of the target, apart from the allocation
 * attempts (those are in {@link NodeAttempt}). Immutable.
 *
 * @param namespace the claim's namespace
 * @param name the claim's name; for a claim a template will create, the template's name
 * @param source {@code ResourceClaim}, or {@code ResourceClaimTemplate} when the claim does not
 *     exist yet and its template is explained in its place
 * @param podClaimName the entry of the pod's {@code spec.resourceClaims}, or null when no pod is
 *     explained
 * @param state {@code allocated}, {@code pending} (not allocated) or {@code deleting}
 * @param node the node the allocation is for, or null (not allocated, or usable on several nodes)
 * @param devices the allocation's devices, empty unless allocated
 * @param reservedFor the claim's consumers as {@code kind/name}
 * @param findings what was checked, one sentence each, for people and scripts alike
 */
record ClaimReport(
    String namespace,
    String name,
    String source,
    String podClaimName,
    String state,
    String node,
    List<AllocatedDevice> devices,
    List<String> reservedFor,
    List<Finding> findings) {

  ClaimReport {
    devices = List.copyOf(devices);
    reservedFor = List.copyOf(reservedFor);
    findings = List.copyOf(findings);
  }

  /** Returns this report with more findings after its own. */
  ClaimReport withFindings(List<Finding> more) {
    if (more.isEmpty()) {
      return this;
    }
    List<Finding> all = new java.util.ArrayList<>(findings);
    all.addAll(more);
    return new ClaimReport(namespace, name, source, podClaimName, state, node, devices,
        reservedFor, all);
  }

  /**
   * One device of an allocation.
   *
   * @param request the result's request name
   * @param device {@code driver/pool/device}
   * @param adminAccess whether the result has admin access
   * @param conditions the device's conditions in {@code status.devices}, as {@code
   *     type=status (reason: message)}
   */
  record AllocatedDevice(String request, String device, boolean adminAccess,
      List<String> conditions) {
    AllocatedDevice {
      conditions = List.copyOf(conditions);
    }
  }

  /**
   * One check and its result.
   *
   * @param check a stable name: {@code reservedFor}, {@code publishing}, {@code devicePublished},
   *     {@code deviceTaint}, {@code bindingConditions}, {@code deletion}, {@code adminAccess}
   *     (the namespace label admin access needs), {@code template}
   * @param ok whether the check found nothing wrong
   * @param message the finding, one sentence
   */
  record Finding(String check, boolean ok, String message) {}
}
