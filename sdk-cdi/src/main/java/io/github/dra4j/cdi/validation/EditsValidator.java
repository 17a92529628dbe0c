package io.github.dra4j.cdi.validation;

import io.github.dra4j.cdi.internal.EditRules;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.DeviceNodeType;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.cdi.spec.IntelRdt;
import io.github.dra4j.cdi.spec.Mount;
import io.github.dra4j.cdi.spec.NetDevice;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Checks one container edits object, in the library's order: env, nodes, hooks, mounts, RDT, net. */
final class EditsValidator {
  private static final int MAX_CLOS_ID_LENGTH = 4096;

  private final ValidationRules rules;
  private final ProblemList problems;

  EditsValidator(ValidationRules rules, ProblemList problems) {
    this.rules = rules;
    this.problems = problems;
  }

  private boolean strict() {
    return rules == ValidationRules.WRITER;
  }

  void check(ContainerEdits edits, String field) {
    checkEnv(edits.env(), field + ".env");
    for (int i = 0; i < edits.deviceNodes().size(); i++) {
      checkDeviceNode(edits.deviceNodes().get(i), field + ".deviceNodes[" + i + "]");
    }
    for (int i = 0; i < edits.hooks().size(); i++) {
      checkHook(edits.hooks().get(i), field + ".hooks[" + i + "]");
    }
    for (int i = 0; i < edits.mounts().size(); i++) {
      checkMount(edits.mounts().get(i), field + ".mounts[" + i + "]");
    }
    if (edits.intelRdt() != null) {
      checkIntelRdt(edits.intelRdt(), field + ".intelRdt");
    }
    checkNetDevices(edits.netDevices(), field + ".netDevices");
  }

  private void checkEnv(List<String> env, String field) {
    for (int i = 0; i < env.size(); i++) {
      String entry = env.get(i);
      if (entry.indexOf('=') < 1) {
        problems.add(field + "[" + i + "]", entry,
            "invalid environment variable \"" + entry + "\", must be NAME=VALUE");
      } else if (strict() && entry.indexOf('\0') >= 0) {
        problems.add(field + "[" + i + "]", entry, "environment entry contains a NUL character");
      }
    }
  }

  private void checkDeviceNode(DeviceNode node, String field) {
    if (node.path().isEmpty()) {
      problems.add(field + ".path", "", "invalid (empty) device path");
    } else {
      strictPath(node.path(), field + ".path");
    }
    if (!node.hostPath().isEmpty()) {
      strictPath(node.hostPath(), field + ".hostPath");
    }
    if (!node.type().isEmpty() && DeviceNodeType.fromCode(node.type()).isEmpty()) {
      problems.add(field + ".type", node.type(),
          "device \"" + node.path() + "\": invalid type \"" + node.type()
              + "\", must be one of b, c, u, p or empty");
    }
    if (!node.permissions().chars().allMatch(c -> c == 'r' || c == 'w' || c == 'm')) {
      problems.add(field + ".permissions", node.permissions(),
          "device \"" + node.path() + "\": invalid permissions \"" + node.permissions()
              + "\", must be a combination of r, w and m");
    }
    if (strict() && node.fileMode() != null && node.fileMode() > EditRules.MAX_FILE_MODE) {
      problems.add(field + ".fileMode", Integer.toOctalString(node.fileMode()),
          "fileMode holds only permission bits (at most 07777), not file type bits");
    }
  }

  private void checkHook(Hook hook, String field) {
    if (HookName.fromJsonName(hook.hookName()).isEmpty()) {
      problems.add(field + ".hookName", hook.hookName(), "invalid hook name \""
          + hook.hookName() + "\", must be one of prestart, createRuntime, createContainer,"
          + " startContainer, poststart, poststop");
    }
    if (hook.path().isEmpty()) {
      problems.add(field + ".path", "",
          "invalid hook \"" + hook.hookName() + "\" with empty path");
    } else {
      strictPath(hook.path(), field + ".path");
    }
    checkEnv(hook.env(), field + ".env");
    if (strict() && hook.timeout() != null && hook.timeout() <= 0) {
      problems.add(field + ".timeout", hook.timeout(), "hook timeout must be greater than 0");
    }
  }

  private void checkMount(Mount mount, String field) {
    if (mount.hostPath().isEmpty()) {
      problems.add(field + ".hostPath", "", "invalid mount, empty host path");
    } else if (mount.type().isEmpty() || mount.hostPath().startsWith("/")) {
      // A source without a leading '/' is a pseudo source (tmpfs, proc) only when typed.
      strictPath(mount.hostPath(), field + ".hostPath");
    }
    if (mount.containerPath().isEmpty()) {
      problems.add(field + ".containerPath", "", "invalid mount, empty container path");
    } else {
      strictPath(mount.containerPath(), field + ".containerPath");
    }
  }

  private void checkIntelRdt(IntelRdt rdt, String field) {
    String closId = rdt.closID();
    if (closId.isEmpty()) {
      return;
    }
    if (closId.equals("/")) {
      if (strict()) {
        problems.add(field + ".closID", closId,
            "the root CLOS \"/\" is refused by runtimes older than CDI v1.1.0");
      }
      return;
    }
    if (closId.length() >= MAX_CLOS_ID_LENGTH || closId.equals(".") || closId.equals("..")
        || closId.contains("/") || closId.contains("\n")) {
      problems.add(field + ".closID", closId, "invalid ClosID \"" + closId
          + "\": must be shorter than 4096, not . or .., without '/' or newline");
    }
  }

  private void checkNetDevices(List<NetDevice> netDevices, String field) {
    Set<String> hostNames = new HashSet<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < netDevices.size(); i++) {
      NetDevice device = netDevices.get(i);
      String at = field + "[" + i + "]";
      interfaceName(device.hostInterfaceName(), hostNames, at + ".hostInterfaceName", "host");
      interfaceName(device.name(), names, at + ".name", "container");
    }
  }

  /** Non-empty and unique within the edits; a Linux interface name under the writer rules. */
  private void interfaceName(String name, Set<String> seen, String field, String side) {
    if (name.isEmpty()) {
      problems.add(field, "", "invalid (empty) " + side + " interface name");
    } else if (!seen.add(name)) {
      problems.add(field, name, "duplicate " + side + " interface name \"" + name + "\"");
    } else {
      linuxInterfaceName(name, field);
    }
  }

  private void linuxInterfaceName(String name, String field) {
    if (strict()) {
      EditRules.interfaceNameProblem(name).ifPresent(reason -> problems.add(field, name, reason));
    }
  }

  private void strictPath(String path, String field) {
    if (strict()) {
      EditRules.absolutePathProblem(path).ifPresent(reason -> problems.add(field, path, reason));
    }
  }
}
