package io.github.dra4j.cdi.injection;

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
    DeviceNode.Builder completed = DeviceNode.builder(node.path())
        .hostPath(node.hostPath())
        .type(node.type())
        .numbers(node.major(), node.minor())
        .fileMode(node.fileMode() == null ? found.permissions() : node.fileMode())
        .permissions(node.permissions());
    if (node.uid() != null) {
      completed.uid(node.uid());
    }
    if (node.gid() != null) {
      completed.gid(node.gid());
    }
    if (fullySpecified) {
      return completed.build();
    }
    if (node.type().isEmpty()) {
      completed.type(found.type());
    } else if (!node.type().equals(found.type())) {
      throw new InjectionException("CDI device (" + node.path() + ", " + hostPath
          + "), host type mismatch (" + node.type() + ", " + found.type() + ")", null);
    }
    if (!found.type().equals("p") && node.major() == 0) {
      completed.numbers(found.major(), found.minor());
    }
    return completed.build();
  }
}
