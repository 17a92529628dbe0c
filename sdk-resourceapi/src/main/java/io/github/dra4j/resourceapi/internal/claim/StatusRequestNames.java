package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

// SHARED-CANDIDATE: use claim's RequestNames (gatherRequestNames, Has, validateRequestNameRef).
/**
 * The names of a claim's requests, and of the sub-requests of each {@code firstAvailable}
 * request, that status entries refer to as {@code <request>} or {@code <request>/<sub-request>}.
 * Immutable.
 */
final class StatusRequestNames {

  /** What the server says when a reference names no request of the claim. */
  static final String NOT_A_REQUEST = "must be the name of a request in the claim or the name of"
      + " a request and a subrequest separated by '/'";

  /** Request name to its sub-request names; null for a request without firstAvailable. */
  private final Map<String, Set<String>> names;

  private StatusRequestNames(Map<String, Set<String>> names) {
    this.names = names;
  }

  /**
   * Gathers the request names of a claim's spec.
   *
   * @param claim the claim, may be null or without a spec
   * @return the names
   */
  static StatusRequestNames of(ResourceClaim claim) {
    Map<String, Set<String>> names = new HashMap<>();
    List<DeviceRequest> requests = claim == null || claim.getSpec() == null
        || claim.getSpec().getDevices() == null ? null
        : claim.getSpec().getDevices().getRequests();
    if (requests != null) {
      for (DeviceRequest request : requests) {
        String name = nullToEmpty(request.getName());
        List<DeviceSubRequest> subRequests = request.getFirstAvailable();
        if (subRequests == null || subRequests.isEmpty()) {
          names.put(name, null);
          continue;
        }
        Set<String> subNames = new HashSet<>();
        for (DeviceSubRequest subRequest : subRequests) {
          subNames.add(nullToEmpty(subRequest.getName()));
        }
        names.put(name, subNames);
      }
    }
    return new StatusRequestNames(names);
  }

  /**
   * Tells whether a reference names a request, or a sub-request of a request.
   *
   * @param reference {@code <request>} or {@code <request>/<sub-request>}
   * @return true if the claim has it
   */
  boolean has(String reference) {
    String[] segments = reference.split("/", -1);
    if (segments.length > 2 || !names.containsKey(segments[0])) {
      return false;
    }
    if (segments.length == 1) {
      return true;
    }
    Set<String> subNames = names.get(segments[0]);
    return subNames != null && subNames.contains(segments[1]);
  }

  /**
   * validateRequestNameRef: at most one slash, each part a request name, and a request (or
   * sub-request) of the claim.
   *
   * @param reference the reference, null taken as empty
   * @param path the field
   * @return the errors
   */
  List<FieldError> validateReference(String reference, FieldPath path) {
    String name = nullToEmpty(reference);
    List<FieldError> errors = new ArrayList<>();
    String[] segments = name.split("/", -1);
    if (segments.length > 2) {
      errors.add(Errors.invalid(path, name, NOT_A_REQUEST));
      return errors;
    }
    for (String segment : segments) {
      errors.addAll(DeviceFieldRules.requestName(segment, path));
    }
    if (!has(name)) {
      errors.add(Errors.invalid(path, name, NOT_A_REQUEST));
    }
    return errors;
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
