package io.github.dra4j.cdi.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * What a runtime changes in the container's OCI spec when a device (or any device of a spec, for
 * spec-level edits) is injected. Lists are immutable copies; null lists become empty, while null
 * items and group IDs outside the unsigned 32-bit range are refused with {@link
 * IllegalArgumentException}.
 *
 * <p>The {@link Builder} checks every value when it is added and refuses a bad one with an {@link
 * IllegalArgumentException} naming the value: an environment variable name that is empty, null or
 * holds {@code '='}, a null value, a relative or unnormalized path, an unknown device type or hook
 * name, and the other rules a runtime or the kernel would otherwise fail on when the container
 * starts. The record's constructor does not check values, because it also holds specs read from
 * files; a spec is checked as a whole before it is written.
 *
 * @param env environment entries {@code NAME=VALUE}, appended to {@code process.env}
 * @param deviceNodes device nodes, added to {@code linux.devices}
 * @param netDevices network interfaces moved into the container (spec 1.1.0)
 * @param hooks OCI hooks
 * @param mounts mounts
 * @param intelRdt Intel RDT settings (spec 0.7.0); null when absent
 * @param additionalGids supplementary groups for the process (spec 0.7.0); 0 is ignored by runtimes
 */
@JsonPropertyOrder({
    "env", "deviceNodes", "netDevices", "hooks", "mounts", "intelRdt", "additionalGids"
})
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ContainerEdits(
    List<String> env,
    List<DeviceNode> deviceNodes,
    List<NetDevice> netDevices,
    List<Hook> hooks,
    List<Mount> mounts,
    @JsonInclude(JsonInclude.Include.NON_NULL) IntelRdt intelRdt,
    List<Long> additionalGids) {

  /** Edits that change nothing. */
  public static final ContainerEdits EMPTY = builder().build();

  /**
   * Copies all lists; null becomes empty.
   *
   * @param env environment entries {@code NAME=VALUE}, appended to {@code process.env}
   * @param deviceNodes device nodes, added to {@code linux.devices}
   * @param netDevices network interfaces moved into the container (spec 1.1.0)
   * @param hooks OCI hooks
   * @param mounts mounts
   * @param intelRdt Intel RDT settings (spec 0.7.0)
   * @param additionalGids supplementary groups for the process (spec 0.7.0)
   * @throws IllegalArgumentException if a list holds null or a gid does not fit 32 bits unsigned
   */
  public ContainerEdits {
    env = Copies.list("env", env);
    deviceNodes = Copies.list("deviceNodes", deviceNodes);
    netDevices = Copies.list("netDevices", netDevices);
    hooks = Copies.list("hooks", hooks);
    mounts = Copies.list("mounts", mounts);
    additionalGids = Copies.list("additionalGids", additionalGids);
    additionalGids.forEach(gid -> Copies.unsigned32("additionalGids entry", gid));
  }

  /**
   * Tells whether these edits change nothing, by the library's definition (which a device's edits
   * must not be): all lists empty and no {@code intelRdt}.
   *
   * @return true if empty
   */
  @JsonIgnore
  public boolean isEmpty() {
    return env.isEmpty() && deviceNodes.isEmpty() && netDevices.isEmpty() && hooks.isEmpty()
        && mounts.isEmpty() && intelRdt == null && additionalGids.isEmpty();
  }

  /**
   * Merges other edits after these, the way a runtime combines the edits of several devices:
   * lists are concatenated (no de-duplication) and a later {@code intelRdt} replaces an earlier
   * one.
   *
   * @param later the edits applied after these
   * @return the combined edits
   */
  public ContainerEdits append(ContainerEdits later) {
    return toBuilder().edits(later).build();
  }

  /**
   * Starts a builder.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts a builder holding these edits.
   *
   * @return a builder
   */
  public Builder toBuilder() {
    return new Builder().edits(this);
  }

  /** Builds {@link ContainerEdits}; not thread-safe, use from one thread. */
  public static final class Builder {
    private final List<String> env = new ArrayList<>();
    private final List<DeviceNode> deviceNodes = new ArrayList<>();
    private final List<NetDevice> netDevices = new ArrayList<>();
    private final List<Hook> hooks = new ArrayList<>();
    private final List<Mount> mounts = new ArrayList<>();
    private final List<Long> additionalGids = new ArrayList<>();
    private IntelRdt intelRdt;

    private Builder() {}

    /**
     * Adds an environment variable.
     *
     * @param name the name: not empty, without {@code '='} or NUL
     * @param value the value: not null (may be empty), without NUL
     * @return this builder
     * @throws IllegalArgumentException naming the variable if the name or value is refused
     */
    public Builder env(String name, String value) {
      env.add(EditChecks.env(name, value));
      return this;
    }

    /**
     * Adds a raw {@code NAME=VALUE} entry; the name ends at the first {@code '='}.
     *
     * @param entry the entry as it will appear in the spec
     * @return this builder
     * @throws IllegalArgumentException naming the entry if it has no {@code '='} after a
     *     non-empty name, or holds NUL
     */
    public Builder rawEnv(String entry) {
      env.add(EditChecks.rawEnv(entry));
      return this;
    }

    /**
     * Adds a device node.
     *
     * @param node the node
     * @return this builder
     * @throws IllegalArgumentException naming the value if a path is not absolute and normalized,
     *     or the type, permissions or file mode is not valid
     */
    public Builder deviceNode(DeviceNode node) {
      deviceNodes.add(EditChecks.deviceNode(node));
      return this;
    }

    /**
     * Adds a device node completed from the host node at the same path.
     *
     * @param path the path, e.g. {@code /dev/nvidia0}
     * @return this builder
     * @throws IllegalArgumentException naming the path if it is not absolute and normalized
     */
    public Builder deviceNode(String path) {
      return deviceNode(DeviceNode.of(path));
    }

    /**
     * Adds a network interface (needs spec 1.1.0).
     *
     * @param hostInterfaceName the host interface
     * @param name the name in the container
     * @return this builder
     * @throws IllegalArgumentException naming the interface if a name is not a Linux interface
     *     name or one of them was added already
     */
    public Builder netDevice(String hostInterfaceName, String name) {
      return netDevice(NetDevice.of(hostInterfaceName, name));
    }

    /**
     * Adds a network interface (needs spec 1.1.0).
     *
     * @param device the interface
     * @return this builder
     * @throws IllegalArgumentException naming the interface if a name is not a Linux interface
     *     name or one of them was added already
     */
    public Builder netDevice(NetDevice device) {
      netDevices.add(EditChecks.netDevice(device, netDevices));
      return this;
    }

    /**
     * Adds a hook.
     *
     * @param hook the hook
     * @return this builder
     * @throws IllegalArgumentException naming the value if the hook name is unknown, the path is
     *     not absolute, an environment entry is not {@code NAME=VALUE} or the timeout is not
     *     above 0
     */
    public Builder hook(Hook hook) {
      hooks.add(EditChecks.hook(hook));
      return this;
    }

    /**
     * Adds a mount.
     *
     * @param mount the mount
     * @return this builder
     * @throws IllegalArgumentException naming the value if the source is empty or (for an untyped
     *     mount) not an absolute path, or the mount point is not absolute and normalized
     */
    public Builder mount(Mount mount) {
      mounts.add(EditChecks.mount(mount));
      return this;
    }

    /**
     * Sets the Intel RDT settings (needs spec 0.7.0).
     *
     * @param value the settings, or null for none
     * @return this builder
     * @throws IllegalArgumentException naming the class of service if it is not valid
     */
    public Builder intelRdt(IntelRdt value) {
      this.intelRdt = EditChecks.intelRdt(value);
      return this;
    }

    /**
     * Adds a supplementary group (needs spec 0.7.0).
     *
     * @param gid the group ID
     * @return this builder
     * @throws IllegalArgumentException naming the ID if it does not fit 32 bits unsigned
     */
    public Builder additionalGid(long gid) {
      additionalGids.add(EditChecks.additionalGid(gid));
      return this;
    }

    /**
     * Appends all of other edits, with the runtime's merge rule ({@link ContainerEdits#append}).
     * The values are not checked again: edits built with a builder were checked when they were
     * added, and edits read from a file are what the file says.
     *
     * @param other the edits to add
     * @return this builder
     */
    public Builder edits(ContainerEdits other) {
      env.addAll(other.env());
      deviceNodes.addAll(other.deviceNodes());
      netDevices.addAll(other.netDevices());
      hooks.addAll(other.hooks());
      mounts.addAll(other.mounts());
      if (other.intelRdt() != null) {
        intelRdt = other.intelRdt();
      }
      additionalGids.addAll(other.additionalGids());
      return this;
    }

    /**
     * Builds the edits.
     *
     * @return the edits
     */
    public ContainerEdits build() {
      return new ContainerEdits(
          env, deviceNodes, netDevices, hooks, mounts, intelRdt, additionalGids);
    }
  }
}
