package io.github.dra4j.cdi.name;

import java.util.List;

/**
 * Builds the pod/container annotations through which device plugins and Kubernetes 1.26 to 1.30
 * passed CDI devices to runtimes: key {@code cdi.k8s.io/<plugin>_<deviceId>}, value a
 * comma-separated list of qualified device names. Current DRA uses the CRI {@code cdi_devices}
 * field instead; this is here for drivers that still have to set annotations.
 */
public final class LegacyDeviceAnnotation {
  /** Prefix every CDI annotation key starts with. */
  public static final String KEY_PREFIX = "cdi.k8s.io/";

  /** Longest name part (after the prefix) an annotation key may have. */
  public static final int MAX_NAME_LENGTH = 63;

  private LegacyDeviceAnnotation() {}

  /**
   * Builds the annotation key for a plugin and device ID. Every {@code /} in the device ID becomes
   * {@code _}.
   *
   * @param pluginName the plugin name, e.g. {@code vendor.class}
   * @param deviceId the device ID within the plugin
   * @return the key, e.g. {@code cdi.k8s.io/vendor.class_device}
   * @throws InvalidNameException naming the field if the plugin name or device ID is empty or the
   *     resulting name is not a valid annotation name of at most 63 characters
   */
  public static String key(String pluginName, String deviceId) {
    if (pluginName == null || pluginName.isEmpty()) {
      throw new InvalidNameException("plugin name", String.valueOf(pluginName), "empty");
    }
    if (deviceId == null || deviceId.isEmpty()) {
      throw new InvalidNameException("device ID", String.valueOf(deviceId), "empty");
    }
    String name = pluginName + "_" + deviceId.replace('/', '_');
    if (name.length() > MAX_NAME_LENGTH) {
      throw new InvalidNameException(
          "annotation name", name,
          "is " + name.length() + " characters long, at most " + MAX_NAME_LENGTH + " allowed");
    }
    if (!NameRules.isAlphaNumeric(name.charAt(0))
        || !NameRules.isAlphaNumeric(name.charAt(name.length() - 1))) {
      throw new InvalidNameException(
          "annotation name", name, "must start and end with a letter or digit");
    }
    for (int i = 1; i < name.length() - 1; i++) {
      char c = name.charAt(i);
      if (!NameRules.isAlphaNumeric(c) && c != '_' && c != '-' && c != '.') {
        throw new InvalidNameException(
            "annotation name", name, "invalid character '" + c + "'");
      }
    }
    return KEY_PREFIX + name;
  }

  /**
   * Builds the annotation value: the device names joined by commas, each checked.
   *
   * @param devices qualified device names, at least one
   * @return e.g. {@code vendor.com/gpu=gpu0,vendor.com/gpu=gpu1}
   * @throws InvalidNameException if the list is empty or an entry is not a qualified device name
   */
  public static String value(List<String> devices) {
    if (devices.isEmpty()) {
      throw new InvalidNameException("devices", "[]", "at least one device is needed");
    }
    for (String device : devices) {
      QualifiedDeviceName.parse(device);
    }
    return String.join(",", devices);
  }
}
