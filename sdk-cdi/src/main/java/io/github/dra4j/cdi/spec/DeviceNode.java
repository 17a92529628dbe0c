package io.github.dra4j.cdi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A device node created in the container. OCI: an entry of {@code linux.devices} plus, for block
 * and char devices, a {@code linux.resources.devices} allow rule.
 *
 * <p>A node is <em>fully specified</em> when {@code type} is set and {@code major} is non-zero (or
 * the type is FIFO); the runtime then uses it as declared even if the host has no such node.
 * Otherwise the runtime takes the missing parts from the host node at {@code hostPath} (or {@code
 * path}) when the container starts, and fails the container if that node does not exist.
 *
 * <p>{@link #of} and the {@link Builder} check every value ({@link ContainerEdits} lists the
 * rules); the constructor does not, because it also holds nodes read from files.
 *
 * <p>Null strings become empty; a {@code uid} or {@code gid} outside the unsigned 32-bit range
 * or a negative {@code fileMode} is refused with {@link IllegalArgumentException}.
 *
 * @param path the path in the container (absolute)
 * @param hostPath the host node to read type and numbers from; empty means {@code path}. A
 *     non-empty value needs spec 0.5.0, so leave it empty when it would equal {@code path}
 * @param type {@code b}, {@code c}, {@code u}, {@code p}, or empty to take the host's type
 * @param major the major number; 0 means not given
 * @param minor the minor number (only meaningful with a major)
 * @param fileMode permission bits, e.g. {@code 0666} (438); null takes the host node's bits
 * @param permissions cgroup access: a combination of {@code r}, {@code w}, {@code m}; empty means
 *     {@code rwm}
 * @param uid the owner in the container; null if not given (0 is a real value)
 * @param gid the group in the container; null if not given (0 is a real value)
 */
@JsonPropertyOrder({
    "path", "hostPath", "type", "major", "minor", "fileMode", "permissions", "uid", "gid"
})
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record DeviceNode(
    @JsonInclude(JsonInclude.Include.ALWAYS) String path,
    String hostPath,
    String type,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long major,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long minor,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer fileMode,
    String permissions,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long uid,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long gid) {

  /**
   * Normalizes null strings to empty and checks numeric ranges.
   *
   * @param path the path in the container (absolute)
   * @param hostPath the host node to read type and numbers from
   * @param type {@code b}, {@code c}, {@code u}, {@code p}, or empty to take the host's type
   * @param major the major number
   * @param minor the minor number (only meaningful with a major)
   * @param fileMode permission bits; null takes the host node's bits
   * @param permissions cgroup access: a combination of {@code r}, {@code w}, {@code m}
   * @param uid the owner in the container
   * @param gid the group in the container
   * @throws IllegalArgumentException if {@code uid} or {@code gid} does not fit an unsigned 32-bit
   *     number or {@code fileMode} is negative
   */
  public DeviceNode {
    path = Copies.text(path);
    hostPath = Copies.text(hostPath);
    type = Copies.text(type);
    permissions = Copies.text(permissions);
    if (uid != null) {
      Copies.unsigned32("device node uid", uid);
    }
    if (gid != null) {
      Copies.unsigned32("device node gid", gid);
    }
    if (fileMode != null && fileMode < 0) {
      throw new IllegalArgumentException("device node fileMode " + fileMode + " is negative");
    }
  }

  /**
   * Creates a node that the runtime completes from the host node at the same path.
   *
   * @param path the path, e.g. {@code /dev/nvidia0}
   * @return the node
   * @throws IllegalArgumentException naming the path if it is not absolute and normalized
   */
  public static DeviceNode of(String path) {
    return builder(path).build();
  }

  /**
   * Starts a builder.
   *
   * @param path the path in the container
   * @return a builder
   */
  public static Builder builder(String path) {
    return new Builder(path);
  }

  /**
   * Tells whether the runtime uses this node as declared without needing the host node.
   *
   * @return true if the type is set and the major is non-zero or the type is FIFO
   */
  public boolean fullySpecified() {
    return !type.isEmpty() && (major != 0 || type.equals(DeviceNodeType.FIFO.code()));
  }

  /** Builds a {@link DeviceNode}; not thread-safe, use from one thread. */
  public static final class Builder {
    private final String path;
    private String hostPath = "";
    private String type = "";
    private long major;
    private long minor;
    private Integer fileMode;
    private String permissions = "";
    private Long uid;
    private Long gid;

    private Builder(String path) {
      this.path = path;
    }

    /**
     * Sets the host node to complete this node from (needs spec 0.5.0).
     *
     * @param value the host path
     * @return this builder
     */
    public Builder hostPath(String value) {
      this.hostPath = value;
      return this;
    }

    /**
     * Sets the type.
     *
     * @param value the type
     * @return this builder
     */
    public Builder type(DeviceNodeType value) {
      this.type = value.code();
      return this;
    }

    /**
     * Sets a raw type code; {@link #build()} refuses one other than {@code b}, {@code c},
     * {@code u}, {@code p} or empty.
     *
     * @param value the code
     * @return this builder
     */
    public Builder type(String value) {
      this.type = value;
      return this;
    }

    /**
     * Sets major and minor numbers.
     *
     * @param majorNumber the major number, non-zero
     * @param minorNumber the minor number
     * @return this builder
     */
    public Builder numbers(long majorNumber, long minorNumber) {
      this.major = majorNumber;
      this.minor = minorNumber;
      return this;
    }

    /**
     * Sets the permission bits.
     *
     * @param value e.g. {@code 0666}
     * @return this builder
     */
    public Builder fileMode(int value) {
      this.fileMode = value;
      return this;
    }

    /**
     * Sets the cgroup access.
     *
     * @param value a combination of {@code r}, {@code w}, {@code m}
     * @return this builder
     */
    public Builder permissions(String value) {
      this.permissions = value;
      return this;
    }

    /**
     * Sets the owner in the container.
     *
     * @param value the uid
     * @return this builder
     */
    public Builder uid(long value) {
      this.uid = value;
      return this;
    }

    /**
     * Sets the group in the container.
     *
     * @param value the gid
     * @return this builder
     */
    public Builder gid(long value) {
      this.gid = value;
      return this;
    }

    /**
     * Builds the node.
     *
     * @return the node
     * @throws IllegalArgumentException naming the value if a path is not absolute and normalized,
     *     or the type, permissions, file mode, uid or gid is not valid
     */
    public DeviceNode build() {
      return EditChecks.deviceNode(
          new DeviceNode(path, hostPath, type, major, minor, fileMode, permissions, uid, gid));
    }
  }
}
