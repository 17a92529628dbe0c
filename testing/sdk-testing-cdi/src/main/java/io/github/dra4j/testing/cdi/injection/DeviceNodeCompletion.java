package io.github.dra4j.testing.cdi.injection;

import io.github.dra4j.cdi.spec.DeviceNode;
import java.io.IOException;

/**
 * Fills in a device node's type, numbers and mode from the host, with the released library's
 * rules (v1.1.0): a fully specified node is used as declared when the host lookup fails; its mode
 * is still taken from the host when the host has a device node there.
 */
final class DeviceNodeCompletion {
  private final HostDeviceNodes host;

  DeviceNodeCompletion(HostDeviceNodes host) {
    this.host = host;
  }

  DeviceNode complete(DeviceNode node) {
    String hostPath = node.hostPath().isEmpty() ? node.path() : node.hostPath();
    boolean fullySpecified = node.fullySpecified();
    HostNode found;
    try {
      found = host.lstat(hostPath);
    } catch (IOException e) {
      if (fullySpecified) {
        return node;
      }
      throw new InjectionException("failed to stat CDI host device \"" + hostPath + "\" for "
          + node.path() + ": " + e, e);
    }
    if (!found.isDeviceNode()) {
      if (fullySpecified) {
        return node;
      }
      throw new InjectionException(
          "failed to stat CDI host device \"" + hostPath + "\": not a device node", null);
    }
    // The constructor, not the builder: the node comes from a file a runtime accepted, and
    // completing it must not apply the stricter rules for files this SDK writes.
    Integer fileMode = node.fileMode() == null ? found.permissions() : node.fileMode();
    if (fullySpecified) {
      return withHostParts(node, node.type(), node.major(), node.minor(), fileMode);
    }
    String type = node.type();
    if (type.isEmpty()) {
      type = found.type();
    } else if (!type.equals(found.type())) {
      throw new InjectionException("CDI device (" + node.path() + ", " + hostPath
          + "), host type mismatch (" + node.type() + ", " + found.type() + ")", null);
    }
    if (!found.type().equals("p") && node.major() == 0) {
      return withHostParts(node, type, found.major(), found.minor(), fileMode);
    }
    return withHostParts(node, type, node.major(), node.minor(), fileMode);
  }

  private static DeviceNode withHostParts(DeviceNode node, String type, long major, long minor,
      Integer fileMode) {
    return new DeviceNode(node.path(), node.hostPath(), type, major, minor, fileMode,
        node.permissions(), node.uid(), node.gid());
  }
}
