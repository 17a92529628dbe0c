package io.github.dra4j.resourceapi.internal.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.github.dra4j.resourceapi.FeatureGates;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code pkg/api/resourceclaimspec}: the fields of a claim spec (in a ResourceClaim or a
 * ResourceClaimTemplate) dropped when their gate is off, unless the stored spec already uses
 * them. In the server's order: prioritized lists, tolerations, admin access, consumable
 * capacity.
 */
final class ClaimSpecFields {

  private ClaimSpecFields() {}

  /**
   * Drops the disabled fields of a spec.
   *
   * @param spec the new spec, changed in place (null: nothing)
   * @param old the stored spec, null on create
   * @param gates the server's gates
   */
  static void dropDisabled(ResourceClaimSpec spec, ResourceClaimSpec old, FeatureGates gates) {
    if (spec == null || spec.getDevices() == null) {
      return;
    }
    List<DeviceRequest> requests = requests(spec);
    if (!gates.enabled(FeatureGates.DRA_PRIORITIZED_LIST)
        && !anyRequest(old, r -> !isEmpty(r.getFirstAvailable()))) {
      requests.forEach(r -> r.setFirstAvailable(new ArrayList<>()));
    }
    if (!gates.enabled(FeatureGates.DRA_DEVICE_TAINTS) && !usesTolerations(old)) {
      for (DeviceRequest request : requests) {
        if (request.getExactly() != null) {
          request.getExactly().setTolerations(new ArrayList<>());
        }
        subRequests(request).forEach(s -> s.setTolerations(new ArrayList<>()));
      }
    }
    if (!gates.enabled(FeatureGates.DRA_ADMIN_ACCESS) && !usesAdminAccess(old)) {
      for (DeviceRequest request : requests) {
        if (request.getExactly() != null) {
          request.getExactly().setAdminAccess(null);
        }
      }
    }
    if (!gates.enabled(FeatureGates.DRA_CONSUMABLE_CAPACITY) && !usesConsumableCapacity(old)) {
      constraints(spec).forEach(c -> c.setDistinctAttribute(null));
      for (DeviceRequest request : requests) {
        if (request.getExactly() != null) {
          request.getExactly().setCapacity(null);
        }
        subRequests(request).forEach(s -> s.setCapacity(null));
      }
    }
  }

  /**
   * Tells whether a spec requests admin access anywhere.
   *
   * @param spec the spec, may be null
   * @return true if some exact request sets {@code adminAccess}
   */
  static boolean usesAdminAccess(ResourceClaimSpec spec) {
    return anyRequest(spec, r -> r.getExactly() != null && r.getExactly().getAdminAccess() != null);
  }

  /**
   * Tells whether a spec uses consumable capacity (distinct attributes or capacity requests).
   *
   * @param spec the spec, may be null
   * @return true if so
   */
  static boolean usesConsumableCapacity(ResourceClaimSpec spec) {
    if (spec == null || spec.getDevices() == null) {
      return false;
    }
    if (constraints(spec).stream().anyMatch(c -> c.getDistinctAttribute() != null)) {
      return true;
    }
    return anyRequest(spec, r -> (r.getExactly() != null && r.getExactly().getCapacity() != null)
        || subRequests(r).stream().anyMatch(s -> s.getCapacity() != null));
  }

  private static boolean usesTolerations(ResourceClaimSpec spec) {
    return anyRequest(spec, r -> {
      ExactDeviceRequest exactly = r.getExactly();
      return (exactly != null && !isEmpty(exactly.getTolerations()))
          || subRequests(r).stream().anyMatch(s -> !isEmpty(s.getTolerations()));
    });
  }

  private static boolean anyRequest(ResourceClaimSpec spec, Predicate<DeviceRequest> test) {
    if (spec == null || spec.getDevices() == null) {
      return false;
    }
    return requests(spec).stream().anyMatch(test);
  }

  private static List<DeviceRequest> requests(ResourceClaimSpec spec) {
    List<DeviceRequest> requests = spec.getDevices().getRequests();
    return requests == null ? List.of() : requests.stream().filter(r -> r != null).toList();
  }

  private static List<DeviceSubRequest> subRequests(DeviceRequest request) {
    List<DeviceSubRequest> subs = request.getFirstAvailable();
    return subs == null ? List.of() : subs.stream().filter(s -> s != null).toList();
  }

  private static List<DeviceConstraint> constraints(ResourceClaimSpec spec) {
    List<DeviceConstraint> constraints = spec.getDevices().getConstraints();
    return constraints == null ? List.of()
        : constraints.stream().filter(c -> c != null).toList();
  }

  private static boolean isEmpty(List<?> list) {
    return list == null || list.isEmpty();
  }
}
