package io.github.dra4j.testing.cdi.injection;

/**
 * An entry of the OCI {@code linux.resources.devices} list: a device cgroup rule.
 *
 * @param allow whether access is allowed
 * @param type {@code b} or {@code c}
 * @param major the major number
 * @param minor the minor number
 * @param access a combination of {@code r}, {@code w}, {@code m}
 */
public record OciDeviceRule(boolean allow, String type, long major, long minor, String access) {}
