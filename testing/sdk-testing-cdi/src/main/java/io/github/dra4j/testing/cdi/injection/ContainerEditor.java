package io.github.dra4j.testing.cdi.injection;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.cdi.spec.DeviceNode;
import io.github.dra4j.cdi.spec.Hook;
import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.cdi.spec.Mount;
import io.github.dra4j.cdi.spec.NetDevice;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies container edits to an OCI container the way a runtime built on the released reference
 * library (v1.1.0) does, in its fixed order: env, device nodes, net devices, mounts, hooks, Intel
 * RDT, additional groups.
 *
 * <ul>
 *   <li>env: a key added earlier by CDI is overwritten in place; any other entry is appended,
 *       even if the original environment already has the key (the last entry wins in runc);
 *   <li>device nodes: completed from the host ({@link HostDeviceNodes}); a node with an existing
 *       path replaces it at the end of the list; uid/gid default to a non-root process user; block
 *       and char nodes get a cgroup allow rule with the node's permissions or {@code rwm};
 *   <li>mounts: a mount with an existing destination replaces it at the end; then all mounts are
 *       stable-sorted by path depth;
 *   <li>hooks are appended per lifecycle point; Intel RDT is replaced; additional groups other
 *       than 0 are added once.
 * </ul>
 *
 * <p>Immutable and thread-safe when its {@link HostDeviceNodes} is.
 */
public final class ContainerEditor {
  private final DeviceNodeCompletion completion;

  /**
   * Creates an editor that completes device nodes from the given host.
   *
   * @param host the host lookup
   */
  public ContainerEditor(HostDeviceNodes host) {
    this.completion = new DeviceNodeCompletion(host);
  }

  /**
   * Creates an editor that completes device nodes from this machine's file system.
   *
   * @return the editor
   */
  public static ContainerEditor forThisHost() {
    return new ContainerEditor(HostDeviceNodes.linux());
  }

  /**
   * Applies edits.
   *
   * @param container the container before the edits
   * @param edits the merged edits of all injected devices
   * @return the container after the edits
   * @throws InjectionException if a device node cannot be completed from the host
   */
  public OciContainer apply(OciContainer container, ContainerEdits edits) {
    List<String> env = applyEnv(container.env(), edits.env());
    List<OciDevice> devices = new ArrayList<>(container.devices());
    List<OciDeviceRule> rules = new ArrayList<>(container.deviceRules());
    for (DeviceNode node : edits.deviceNodes()) {
      addDevice(completion.complete(node), container, devices, rules);
    }
    Map<String, String> netDevices = new LinkedHashMap<>(container.netDevices());
    for (NetDevice netDevice : edits.netDevices()) {
      netDevices.put(netDevice.hostInterfaceName(), netDevice.name());
    }
    List<OciMount> mounts = applyMounts(container.mounts(), edits.mounts());
    Map<HookName, List<OciHook>> hooks = new EnumMap<>(HookName.class);
    container.hooks().forEach((name, list) -> hooks.put(name, new ArrayList<>(list)));
    for (Hook hook : edits.hooks()) {
      HookName name = HookName.fromJsonName(hook.hookName()).orElseThrow(
          () -> new InjectionException("invalid hook name \"" + hook.hookName() + "\"", null));
      hooks.computeIfAbsent(name, n -> new ArrayList<>())
          .add(new OciHook(hook.path(), hook.args(), hook.env(), hook.timeout()));
    }
    List<Long> gids = new ArrayList<>(container.additionalGids());
    for (long gid : edits.additionalGids()) {
      if (gid != 0 && !gids.contains(gid)) {
        gids.add(gid);
      }
    }
    return new OciContainer(env, container.uid(), container.gid(), gids, devices, rules,
        netDevices, mounts, hooks,
        edits.intelRdt() != null ? edits.intelRdt() : container.intelRdt());
  }

  private static List<String> applyEnv(List<String> original, List<String> added) {
    List<String> env = new ArrayList<>(original);
    Map<String, Integer> addedAt = new HashMap<>();
    for (String entry : added) {
      String key = entry.substring(0, Math.max(0, entry.indexOf('=')));
      Integer index = addedAt.get(key);
      if (index != null) {
        env.set(index, entry);
      } else {
        addedAt.put(key, env.size());
        env.add(entry);
      }
    }
    return env;
  }

  private static void addDevice(DeviceNode node, OciContainer container, List<OciDevice> devices,
      List<OciDeviceRule> rules) {
    Long uid = node.uid() == null && container.uid() > 0 ? Long.valueOf(container.uid())
        : node.uid();
    Long gid = node.gid() == null && container.gid() > 0 ? Long.valueOf(container.gid())
        : node.gid();
    devices.removeIf(existing -> existing.path().equals(node.path()));
    devices.add(new OciDevice(node.path(), node.type(), node.major(), node.minor(),
        node.fileMode(), uid, gid));
    if (node.type().equals("b") || node.type().equals("c")) {
      String access = node.permissions().isEmpty() ? "rwm" : node.permissions();
      rules.add(new OciDeviceRule(true, node.type(), node.major(), node.minor(), access));
    }
  }

  private static List<OciMount> applyMounts(List<OciMount> original, List<Mount> added) {
    List<OciMount> mounts = new ArrayList<>(original);
    if (added.isEmpty()) {
      return mounts;
    }
    for (Mount mount : added) {
      for (int i = 0; i < mounts.size(); i++) {
        if (mounts.get(i).destination().equals(mount.containerPath())) {
          mounts.remove(i);
          break;
        }
      }
      mounts.add(new OciMount(
          mount.containerPath(), mount.type(), mount.hostPath(), mount.options()));
    }
    MountOrder.sort(mounts);
    return mounts;
  }
}
