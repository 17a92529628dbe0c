package io.github.dra4j.structured;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import java.util.List;

/**
 * Copies a claim and applies the API server's defaults that objects read from YAML lack: an empty
 * {@code allocationMode} becomes {@code ExactCount}, an {@code ExactCount} without count (or with
 * 0) asks for 1 device, and an empty toleration operator becomes {@code Equal}. The input is never
 * changed. Stateless.
 */
final class ClaimDefaults {

  private ClaimDefaults() {}

  /** Returns a deep copy of the claim, with defaults applied when {@code apply} is true. */
  static ResourceClaim copy(ResourceClaim claim, boolean apply) {
    ResourceClaim copy = new ResourceClaimBuilder(claim).build();
    if (!apply || copy.getSpec() == null || copy.getSpec().getDevices() == null) {
      return copy;
    }
    for (DeviceRequest request : NodeSelection.nonNull(copy.getSpec().getDevices().getRequests())) {
      ExactDeviceRequest exactly = request.getExactly();
      if (exactly != null) {
        exactly.setAllocationMode(mode(exactly.getAllocationMode()));
        exactly.setCount(count(exactly.getAllocationMode(), exactly.getCount()));
        defaultOperators(exactly.getTolerations());
      }
      for (DeviceSubRequest sub : NodeSelection.nonNull(request.getFirstAvailable())) {
        sub.setAllocationMode(mode(sub.getAllocationMode()));
        sub.setCount(count(sub.getAllocationMode(), sub.getCount()));
        defaultOperators(sub.getTolerations());
      }
    }
    return copy;
  }

  private static String mode(String mode) {
    return mode == null || mode.isEmpty() ? "ExactCount" : mode;
  }

  private static Long count(String mode, Long count) {
    if ("ExactCount".equals(mode) && (count == null || count == 0)) {
      return 1L;
    }
    return count;
  }

  private static void defaultOperators(List<DeviceToleration> tolerations) {
    for (DeviceToleration toleration : NodeSelection.nonNull(tolerations)) {
      if (toleration.getOperator() == null || toleration.getOperator().isEmpty()) {
        toleration.setOperator("Equal");
      }
    }
  }
}
