package io.github.dra4j.kubeletplugin.internal.node;

import io.github.dra4j.kubelet.wire.dra.v1.Device;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceclaim.RequestReference;
import java.util.Optional;

/**
 * Turns a driver's {@link PrepareResult} into the wire answer for one claim: an error, or the
 * checked devices with their top-level request names (containers only see those).
 */
final class PrepareAnswer {

  private PrepareAnswer() {}

  static NodePrepareResourceResponse of(ClaimReference ref, PrepareResult result) {
    NodePrepareResourceResponse.Builder answer = NodePrepareResourceResponse.newBuilder();
    if (result == null) {
      return answer.setError("driver returned no result for claim " + ref.namespacedName()).build();
    }
    if (result.isFailed()) {
      return answer.setError(result.error()).build();
    }
    Optional<String> problem = DeviceCheck.problem(result.devices());
    if (problem.isPresent()) {
      return answer.setError(problem.get()).build();
    }
    for (PreparedDevice device : result.devices()) {
      Device.Builder wire = answer.addDevicesBuilder()
          .setPoolName(device.poolName())
          .setDeviceName(device.deviceName())
          .addAllCdiDeviceIds(device.cdiDeviceIds());
      for (String request : device.requests()) {
        wire.addRequestNames(RequestReference.baseRequest(request));
      }
      if (device.shareId() != null) {
        wire.setShareId(device.shareId());
      }
    }
    return answer.build();
  }
}
