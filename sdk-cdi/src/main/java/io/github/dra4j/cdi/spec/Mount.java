package io.github.dra4j.cdi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A mount added to the container. OCI: an entry of {@code mounts} with {@code source = hostPath}
 * and {@code destination = containerPath}. {@link #bind} and {@link #of} check the values (an
 * absolute, normalized mount point; an absolute source unless a typed mount names a pseudo source
 * such as {@code tmpfs}); the constructor does not, because it also holds mounts read from files.
 *
 * @param hostPath the mount source: a host path, or a pseudo source such as {@code tmpfs}
 * @param containerPath the mount point in the container
 * @param options OCI mount options, e.g. {@code ro, nosuid, nodev, bind}; may be empty
 * @param type the file system type, e.g. {@code bind} or {@code tmpfs}; empty if not given (a type
 *     needs spec 0.4.0)
 */
@JsonPropertyOrder({"hostPath", "containerPath", "options", "type"})
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Mount(
    @JsonInclude(JsonInclude.Include.ALWAYS) String hostPath,
    @JsonInclude(JsonInclude.Include.ALWAYS) String containerPath,
    List<String> options,
    String type) {

  /**
   * Copies the options; null becomes empty.
   *
   * @param hostPath the mount source: a host path, or a pseudo source such as {@code tmpfs}
   * @param containerPath the mount point in the container
   * @param options OCI mount options
   * @param type the file system type; empty if not given
   */
  public Mount {
    hostPath = Copies.text(hostPath);
    containerPath = Copies.text(containerPath);
    options = Copies.list("mount options", options);
    type = Copies.text(type);
  }

  /**
   * Creates a bind mount with the given options (no {@code type}, so no version bump); {@code
   * bind} is added to the options if missing.
   *
   * @param hostPath the host path
   * @param containerPath the path in the container
   * @param options further options, e.g. {@code ro}, {@code nosuid}
   * @return the mount
   * @throws IllegalArgumentException naming the path if a path is not absolute and normalized
   */
  public static Mount bind(String hostPath, String containerPath, String... options) {
    List<String> all = new ArrayList<>(List.of(options));
    if (!all.contains("bind") && !all.contains("rbind")) {
      all.add("bind");
    }
    return EditChecks.mount(new Mount(hostPath, containerPath, all, ""));
  }

  /**
   * Creates a mount.
   *
   * @param hostPath the source
   * @param containerPath the path in the container
   * @param type the file system type; empty for none
   * @param options the options
   * @return the mount
   * @throws IllegalArgumentException naming the value if the source is empty or (untyped) not an
   *     absolute path, or the mount point is not absolute and normalized
   */
  public static Mount of(String hostPath, String containerPath, String type, List<String> options) {
    return EditChecks.mount(new Mount(hostPath, containerPath, options, type));
  }
}
