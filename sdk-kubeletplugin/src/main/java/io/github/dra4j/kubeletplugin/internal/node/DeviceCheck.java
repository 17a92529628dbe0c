package io.github.dra4j.kubeletplugin.internal.node;

import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.resourceclaim.RequestReference;
import java.util.List;
import java.util.Optional;

/**
 * Checks what a driver returns before it goes to the kubelet, so a driver bug surfaces as a clear
 * per-claim error instead of a kubelet failure far away. Stateless.
 */
final class DeviceCheck {

  private DeviceCheck() {}

  static Optional<String> problem(List<PreparedDevice> devices) {
    for (int i = 0; i < devices.size(); i++) {
      PreparedDevice device = devices.get(i);
      String where = "driver returned device #" + i;
      if (device.poolName().isEmpty()) {
        return Optional.of(where + " with an empty \"poolName\"");
      }
      if (device.deviceName().isEmpty()) {
        return Optional
            .of(where + " (pool " + device.poolName() + ") with an empty \"deviceName\"");
      }
      for (String request : device.requests()) {
        try {
          RequestReference.parse(request);
        } catch (IllegalArgumentException e) {
          return Optional.of(where + " (" + device.poolName() + "/" + device.deviceName()
              + ") with an invalid request: " + e.getMessage());
        }
      }
      for (String id : device.cdiDeviceIds()) {
        if (!isCdiDeviceId(id)) {
          return Optional.of(
              where + " (" + device.poolName() + "/" + device.deviceName()
                  + ") with CDI device ID " + ClaimRequestCheck.quote(id)
                  + ": must be a fully qualified vendor/class=name");
        }
      }
    }
    return Optional.empty();
  }

  /**
   * A fully qualified CDI device ID, {@code vendor/class=name}: vendor and class without {@code
   * /}, {@code =} or white space, the name without {@code =} or white space, none empty. A
   * character loop rather than a regular expression: it runs for every device of every call.
   */
  static boolean isCdiDeviceId(String value) {
    int slash = -1;
    int equals = -1;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == ' ' || (c >= '\t' && c <= '\r')) {
        return false; // white space: space, \t, \n, \u000B, \f, \r
      }
      if (c == '=') {
        if (equals >= 0 || slash < 0) {
          return false;
        }
        equals = i;
      } else if (c == '/' && equals < 0) {
        if (slash >= 0) {
          return false;
        }
        slash = i;
      }
    }
    return slash > 0 && equals > slash + 1 && equals < value.length() - 1;
  }
}
