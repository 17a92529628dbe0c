package io.github.dra4j.cdi.spec;

import io.github.dra4j.cdi.internal.EditRules;
import java.util.List;
import java.util.Optional;

/**
 * The checks the builders run on every value a driver adds to container edits, so that a bad value
 * fails where it is written, with the value in the message, instead of in the container. They are
 * the writer rules of {@code io.github.dra4j.cdi.validation.ValidationRules#WRITER} for single
 * values; rules across values (a device name, the spec version) are checked when a spec is
 * written. Stateless.
 */
final class EditChecks {
  private EditChecks() {}

  static String env(String name, String value) {
    String entry = name + "=" + value;
    EditRules.envNameProblem(name).ifPresent(reason -> fail("environment variable name", name,
        reason + " (value " + EditRules.quote(value) + ")"));
    EditRules.envValueProblem(value).ifPresent(reason -> fail("value of environment variable",
        name, reason));
    return entry;
  }

  static String rawEnv(String entry) {
    EditRules.envEntryProblem(entry).ifPresent(reason -> fail("environment entry", entry,
        reason));
    return entry;
  }

  static DeviceNode deviceNode(DeviceNode node) {
    if (node == null) {
      throw new IllegalArgumentException("invalid device node: null");
    }
    String path = node.path();
    check("device node path", path, EditRules.absolutePathProblem(path));
    if (!node.hostPath().isEmpty()) {
      check("device node hostPath", node.hostPath(),
          EditRules.absolutePathProblem(node.hostPath()), path);
    }
    check("device node type", node.type(), EditRules.deviceTypeProblem(node.type()), path);
    check("device node permissions", node.permissions(),
        EditRules.permissionsProblem(node.permissions()), path);
    if (node.fileMode() != null) {
      check("device node fileMode", "0" + Integer.toOctalString(node.fileMode()),
          EditRules.fileModeProblem(node.fileMode()), path);
    }
    return node;
  }

  static Hook hook(Hook hook) {
    if (hook == null) {
      throw new IllegalArgumentException("invalid hook: null");
    }
    check("hook name", hook.hookName(), EditRules.hookNameProblem(hook.hookName()));
    check("hook path", hook.path(), EditRules.absolutePathProblem(hook.path()));
    hook.env().forEach(EditChecks::rawEnv);
    if (hook.timeout() != null) {
      check("hook timeout", hook.timeout().toString(),
          EditRules.hookTimeoutProblem(hook.timeout()), hook.path());
    }
    return hook;
  }

  static Mount mount(Mount mount) {
    if (mount == null) {
      throw new IllegalArgumentException("invalid mount: null");
    }
    String source = mount.hostPath();
    if (source.isEmpty()) {
      fail("mount hostPath", source, "the mount source is empty (mount onto "
          + EditRules.quote(mount.containerPath()) + ")");
    }
    // A source without a leading '/' is a pseudo source (tmpfs, proc) only when typed.
    if (mount.type().isEmpty() || source.startsWith("/")) {
      check("mount hostPath", source, EditRules.absolutePathProblem(source));
    }
    check("mount containerPath", mount.containerPath(),
        EditRules.absolutePathProblem(mount.containerPath()));
    mount.options().forEach(option -> {
      if (option.isEmpty() || option.indexOf('\0') >= 0) {
        fail("mount option", option, "empty or contains a NUL character (mount of "
            + EditRules.quote(source) + ")");
      }
    });
    return mount;
  }

  static NetDevice netDevice(NetDevice device, List<NetDevice> earlier) {
    if (device == null) {
      throw new IllegalArgumentException("invalid net device: null");
    }
    check("host interface name", device.hostInterfaceName(),
        EditRules.interfaceNameProblem(device.hostInterfaceName()));
    check("container interface name", device.name(),
        EditRules.interfaceNameProblem(device.name()));
    for (NetDevice other : earlier) {
      if (other.hostInterfaceName().equals(device.hostInterfaceName())) {
        fail("host interface name", device.hostInterfaceName(), "added twice");
      }
      if (other.name().equals(device.name())) {
        fail("container interface name", device.name(), "added twice");
      }
    }
    return device;
  }

  static IntelRdt intelRdt(IntelRdt rdt) {
    if (rdt != null) {
      check("intelRdt closID", rdt.closID(), EditRules.closIdProblem(rdt.closID()));
    }
    return rdt;
  }

  static long additionalGid(long gid) {
    return Copies.unsigned32("additionalGids entry", gid);
  }

  private static void check(String what, String value, Optional<String> problem) {
    problem.ifPresent(reason -> fail(what, value, reason));
  }

  private static void check(String what, String value, Optional<String> problem, String of) {
    problem.ifPresent(reason -> fail(what, value, reason + " (" + of + ")"));
  }

  private static void fail(String what, String value, String reason) {
    throw new IllegalArgumentException("invalid " + what + " " + EditRules.quote(value) + ": "
        + reason);
  }
}
