package io.github.dra4j.kubeletplugin.internal.node;

import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.resourceclaim.RequestReference;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks what a driver returns before it goes to the kubelet, so a driver bug surfaces as a clear
 * per-claim error instead of a kubelet failure far away. Stateless.
 */
final class DeviceCheck {

  /** {@code vendor/class=name}, each part non-empty, no blanks. */
  private static final Pattern CDI_ID = Pattern.compile("[^/=\\s]+/[^/=\\s]+=[^=\\s]+");

  private DeviceCheck() {}

  static Optional<String> problem(List<PreparedDevice> devices) {
    for (int i = 0; i < devices.size(); i++) {
      PreparedDevice device = devices.get(i);
      String where = "driver returned device #" + i;
      if (device.poolName().isEmpty()) {
        return Optional.of(where + " with an empty \"poolName\"");
      }
      if (device.deviceName().isEmpty()) {
        return Optional.of(where + " (pool " + device.poolName() + ") with an empty \"deviceName\"");
      }
      for (String request : device.requests()) {
        if (FastNames.isRequestReference(request)) {
          continue;
        }
        try {
          RequestReference.parse(request);
        } catch (IllegalArgumentException e) {
          return Optional.of(where + " (" + device.poolName() + "/" + device.deviceName()
              + ") with an invalid request: " + e.getMessage());
        }
      }
      for (String id : device.cdiDeviceIds()) {
        if (!FastNames.isCdiDeviceId(id) && !CDI_ID.matcher(id).matches()) {
          return Optional.of(
              where + " (" + device.poolName() + "/" + device.deviceName()
                  + ") with CDI device ID " + ClaimRequestCheck.quote(id)
                  + ": must be a fully qualified vendor/class=name");
        }
      }
    }
    return Optional.empty();
  }
}
