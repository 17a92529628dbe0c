package io.github.dra4j.kubeletplugin.internal.node;

import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.resourceclaim.RequestReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Adds the metadata CDI device IDs to a prepared claim's devices: each request's ID is
 * added once, to the first device serving that request. Stateless.
 */
final class MetadataInjection {

  private MetadataInjection() {}

  static PrepareResult inject(PrepareResult result, Map<String, String> idByBaseRequest) {
    if (idByBaseRequest.isEmpty()) {
      return result;
    }
    Set<String> injected = new HashSet<>();
    List<PreparedDevice> devices = new ArrayList<>();
    for (PreparedDevice device : result.devices()) {
      List<String> ids = new ArrayList<>(device.cdiDeviceIds());
      for (String request : device.requests()) {
        String id = idByBaseRequest.get(RequestReference.baseRequest(request));
        if (id != null && injected.add(id)) {
          ids.add(id);
        }
      }
      devices.add(new PreparedDevice(device.requests(), device.poolName(), device.deviceName(),
          ids, device.shareId(), device.metadata()));
    }
    return PrepareResult.prepared(devices);
  }
}
