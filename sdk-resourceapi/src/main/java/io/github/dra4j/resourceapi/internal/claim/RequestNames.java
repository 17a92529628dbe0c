package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.device.DeviceFieldRules;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names of a claim's requests, and of the sub-requests of each {@code firstAvailable} request,
 * which constraints, configurations and allocation results refer to as {@code req} or {@code
 * req/sub} (Go's {@code gatherRequestNames} and {@code requestNames.Has}). Immutable.
 */
public final class RequestNames {

  /** The message of a reference to no request of the claim. */
  static final String NOT_A_REQUEST = "must be the name of a request in the claim or the name of"
      + " a request and a subrequest separated by '/'";

  /** Request name to its sub-request names; empty for a request without {@code firstAvailable}. */
  private final Map<String, Set<String>> names;

  private RequestNames(Map<String, Set<String>> names) {
    this.names = names;
  }

  /**
   * Gathers the request names of a claim's devices.
   *
   * @param devices {@code spec.devices}, may be null
   * @return the names; a later request of the same name replaces an earlier one, as in Go
   */
  public static RequestNames of(DeviceClaim devices) {
    Map<String, Set<String>> names = new HashMap<>();
    if (devices != null && devices.getRequests() != null) {
      for (DeviceRequest request : devices.getRequests()) {
        if (request == null) {
          continue;
        }
        Set<String> subRequests = new HashSet<>();
        if (request.getFirstAvailable() != null) {
          for (DeviceSubRequest subRequest : request.getFirstAvailable()) {
            if (subRequest != null) {
              subRequests.add(nonNull(subRequest.getName()));
            }
          }
        }
        names.put(nonNull(request.getName()), Collections.unmodifiableSet(subRequests));
      }
    }
    return new RequestNames(Collections.unmodifiableMap(names));
  }

  /**
   * Tells whether a reference names a request, or a sub-request of a {@code firstAvailable}
   * request.
   *
   * @param reference {@code req} or {@code req/sub}
   * @return true if the claim has it; false for more than one slash
   */
  public boolean has(String reference) {
    String[] segments = nonNull(reference).split("/", -1);
    if (segments.length > 2) {
      return false;
    }
    Set<String> subRequests = names.get(segments[0]);
    if (subRequests == null) {
      return false;
    }
    return segments.length == 1 || subRequests.contains(segments[1]);
  }

  /**
   * Checks a reference to a request (Go's {@code validateRequestNameRef}): at most one slash, each
   * part a request name, and a request (or sub-request) of the claim.
   *
   * @param reference the reference, e.g. an item of {@code constraints[].requests}
   * @param path its field
   * @return the errors
   */
  public List<FieldError> checkReference(String reference, FieldPath path) {
    String name = nonNull(reference);
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

  private static String nonNull(String value) {
    return value == null ? "" : value;
  }
}
