package io.github.dra4j.testing.cdi.injection;

/**
 * An entry of the OCI {@code linux.devices} list: a device node the runtime creates in the
 * container.
 *
 * @param path the path in the container
 * @param type {@code b}, {@code c}, {@code u} or {@code p}
 * @param major the major number
 * @param minor the minor number
 * @param fileMode permission bits; null if not set
 * @param uid the owner; null if not set
 * @param gid the group; null if not set
 */
public record OciDevice(
    String path, String type, long major, long minor, Integer fileMode, Long uid, Long gid) {}
