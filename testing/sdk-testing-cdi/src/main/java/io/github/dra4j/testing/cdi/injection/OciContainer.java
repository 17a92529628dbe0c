package io.github.dra4j.testing.cdi.injection;

import io.github.dra4j.cdi.spec.HookName;
import io.github.dra4j.cdi.spec.IntelRdt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of an OCI runtime spec that CDI edits: what a container sees after a runtime injects
 * CDI devices. Used by tests to assert exactly what a driver's specs give a container.
 *
 * @param env {@code process.env}
 * @param uid {@code process.user.uid}
 * @param gid {@code process.user.gid}
 * @param additionalGids {@code process.user.additionalGids}
 * @param devices {@code linux.devices}
 * @param deviceRules {@code linux.resources.devices}
 * @param netDevices {@code linux.netDevices}: host interface name to container interface name
 * @param mounts {@code mounts}
 * @param hooks {@code hooks}, per lifecycle point; lifecycle points without hooks are absent
 * @param intelRdt {@code linux.intelRdt}; null if not set
 */
public record OciContainer(
    List<String> env,
    long uid,
    long gid,
    List<Long> additionalGids,
    List<OciDevice> devices,
    List<OciDeviceRule> deviceRules,
    Map<String, String> netDevices,
    List<OciMount> mounts,
    Map<HookName, List<OciHook>> hooks,
    IntelRdt intelRdt) {

  /**
   * Copies every collection, keeping order.
   *
   * @param env {@code process.env}
   * @param uid {@code process.user.uid}
   * @param gid {@code process.user.gid}
   * @param additionalGids {@code process.user.additionalGids}
   * @param devices {@code linux.devices}
   * @param deviceRules {@code linux.resources.devices}
   * @param netDevices {@code linux.netDevices}: host interface name to container interface name
   * @param mounts {@code mounts}
   * @param hooks {@code hooks}, per lifecycle point
   * @param intelRdt {@code linux.intelRdt}
   */
  public OciContainer {
    env = List.copyOf(env);
    additionalGids = List.copyOf(additionalGids);
    devices = List.copyOf(devices);
    deviceRules = List.copyOf(deviceRules);
    netDevices = Collections.unmodifiableMap(new LinkedHashMap<>(netDevices));
    mounts = List.copyOf(mounts);
    EnumMap<HookName, List<OciHook>> hookCopy = new EnumMap<>(HookName.class);
    hooks.forEach((name, list) -> {
      if (!list.isEmpty()) {
        hookCopy.put(name, List.copyOf(list));
      }
    });
    hooks = Collections.unmodifiableMap(hookCopy);
  }

  /**
   * Returns a container with nothing set (root user, no env, devices or mounts).
   *
   * @return the empty container
   */
  public static OciContainer empty() {
    return builder().build();
  }

  /**
   * Starts a builder for the container a runtime starts from, before CDI edits.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the hooks of one lifecycle point.
   *
   * @param name the lifecycle point
   * @return its hooks in order; empty if none
   */
  public List<OciHook> hooks(HookName name) {
    return hooks.getOrDefault(name, List.of());
  }

  /**
   * Returns the value of an environment variable as the process sees it (the last entry wins,
   * as with runc).
   *
   * @param name the variable name
   * @return the value, or null if not set
   */
  public String envValue(String name) {
    String value = null;
    for (String entry : env) {
      int equals = entry.indexOf('=');
      if (equals >= 0 && entry.substring(0, equals).equals(name)) {
        value = entry.substring(equals + 1);
      }
    }
    return value;
  }

  /**
   * Writes the container as OCI runtime-spec JSON ({@code config.json} shape), so a test can
   * compare it with what a runtime produced: {@code process.user} ({@code uid}, {@code gid},
   * {@code additionalGids}), {@code process.env}, {@code mounts}, {@code hooks}, {@code
   * linux.resources.devices}, {@code linux.devices}, {@code linux.intelRdt} and {@code
   * linux.netDevices}. Field names, nesting and key order are the runtime-spec Go types', and
   * empty optional fields are left out as Go's encoder leaves them out, so the compact text equals
   * Go's for the same parts. Only the parts this model holds are written; cgroup rules always carry
   * {@code major} and {@code minor} (the model has no wildcard rules).
   *
   * <pre>{@code
   * {"process":{"user":{"uid":0,"gid":0},"env":["GPU=0"]},
   *  "linux":{"resources":{"devices":[{"allow":true,"type":"c","major":195,"minor":0,
   *  "access":"rwm"}]},"devices":[{"path":"/dev/gpu0","type":"c","major":195,"minor":0}]}}
   * }</pre>
   *
   * @return compact JSON
   */
  public String toOciJson() {
    return OciJson.write(this);
  }

  /** Builds an {@link OciContainer}; not thread-safe, use from one thread. */
  public static final class Builder {
    private final List<String> env = new ArrayList<>();
    private final List<Long> additionalGids = new ArrayList<>();
    private final List<OciDevice> devices = new ArrayList<>();
    private final List<OciDeviceRule> deviceRules = new ArrayList<>();
    private final Map<String, String> netDevices = new LinkedHashMap<>();
    private final List<OciMount> mounts = new ArrayList<>();
    private final Map<HookName, List<OciHook>> hooks = new EnumMap<>(HookName.class);
    private long uid;
    private long gid;
    private IntelRdt intelRdt;

    private Builder() {}

    /**
     * Adds {@code NAME=VALUE} entries to the process environment.
     *
     * @param entries the entries
     * @return this builder
     */
    public Builder env(String... entries) {
      env.addAll(List.of(entries));
      return this;
    }

    /**
     * Sets the process user.
     *
     * @param userId the uid
     * @param groupId the gid
     * @return this builder
     */
    public Builder user(long userId, long groupId) {
      this.uid = userId;
      this.gid = groupId;
      return this;
    }

    /**
     * Adds a supplementary group.
     *
     * @param groupId the gid
     * @return this builder
     */
    public Builder additionalGid(long groupId) {
      additionalGids.add(groupId);
      return this;
    }

    /**
     * Adds a device node.
     *
     * @param device the device
     * @return this builder
     */
    public Builder device(OciDevice device) {
      devices.add(device);
      return this;
    }

    /**
     * Adds a device cgroup rule.
     *
     * @param rule the rule
     * @return this builder
     */
    public Builder deviceRule(OciDeviceRule rule) {
      deviceRules.add(rule);
      return this;
    }

    /**
     * Adds a network device.
     *
     * @param hostInterfaceName the host interface
     * @param name the container interface name
     * @return this builder
     */
    public Builder netDevice(String hostInterfaceName, String name) {
      netDevices.put(hostInterfaceName, name);
      return this;
    }

    /**
     * Adds a mount.
     *
     * @param mount the mount
     * @return this builder
     */
    public Builder mount(OciMount mount) {
      mounts.add(mount);
      return this;
    }

    /**
     * Adds a hook.
     *
     * @param name the lifecycle point
     * @param hook the hook
     * @return this builder
     */
    public Builder hook(HookName name, OciHook hook) {
      hooks.computeIfAbsent(name, n -> new ArrayList<>()).add(hook);
      return this;
    }

    /**
     * Sets the Intel RDT settings.
     *
     * @param value the settings, or null
     * @return this builder
     */
    public Builder intelRdt(IntelRdt value) {
      this.intelRdt = value;
      return this;
    }

    /**
     * Builds the container.
     *
     * @return the container
     */
    public OciContainer build() {
      return new OciContainer(env, uid, gid, additionalGids, devices, deviceRules, netDevices,
          mounts, hooks, intelRdt);
    }
  }
}
