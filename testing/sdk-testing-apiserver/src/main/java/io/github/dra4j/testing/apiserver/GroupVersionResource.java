package io.github.dra4j.testing.apiserver;

import java.util.Objects;

/**
 * Names one kind of object the API server stores: API group ({@code ""} for the core group),
 * version and plural resource name, e.g. {@code resource.k8s.io/v1/resourceslices}.
 *
 * @param group the API group, empty for the core group
 * @param version the API version, e.g. {@code v1beta2}
 * @param resource the plural resource name, e.g. {@code resourceslices}
 */
public record GroupVersionResource(String group, String version, String resource) {

  /** {@code resource.k8s.io/v1/resourceslices}. */
  public static final GroupVersionResource RESOURCE_SLICES_V1 = new GroupVersionResource(
      "resource.k8s.io", "v1", "resourceslices");

  /** {@code resource.k8s.io/v1beta2/resourceslices}. */
  public static final GroupVersionResource RESOURCE_SLICES_V1BETA2 = new GroupVersionResource(
      "resource.k8s.io", "v1beta2", "resourceslices");

  /** {@code resource.k8s.io/v1beta1/resourceslices}. */
  public static final GroupVersionResource RESOURCE_SLICES_V1BETA1 = new GroupVersionResource(
      "resource.k8s.io", "v1beta1", "resourceslices");

  /**
   * Checks that no part is null and that version and resource are not empty.
   *
   * @param group the API group, e.g. {@code resource.k8s.io}; empty (not null) for the core group
   * @param version the API version, e.g. {@code v1}; not empty
   * @param resource the plural, lower-case resource name, e.g. {@code resourceslices}; not empty
   * @throws NullPointerException naming the part that is null
   * @throws IllegalArgumentException if {@code version} or {@code resource} is empty, with both
   *     values in the message
   */
  public GroupVersionResource {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(resource, "resource");
    if (version.isEmpty() || resource.isEmpty()) {
      throw new IllegalArgumentException(
          "version and resource must not be empty: version=\"" + version + "\", resource=\""
              + resource + "\"");
    }
  }

  /**
   * Builds a resource name from an {@code apiVersion} string and a plural name.
   *
   * @param groupVersion {@code v1} for the core group or {@code <group>/<version>}
   * @param resource the plural resource name
   * @return the resource name
   */
  public static GroupVersionResource of(String groupVersion, String resource) {
    int slash = groupVersion.indexOf('/');
    return slash < 0
        ? new GroupVersionResource("", groupVersion, resource)
        : new GroupVersionResource(
            groupVersion.substring(0, slash), groupVersion.substring(slash + 1), resource);
  }

  /**
   * Returns the {@code apiVersion} form of group and version.
   *
   * @return {@code <version>} for the core group, otherwise {@code <group>/<version>}
   */
  public String groupVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /**
   * Returns the resource qualified by its group as the API server names it in messages.
   *
   * @return e.g. {@code resourceslices.resource.k8s.io}, or {@code pods} for the core group
   */
  public String qualifiedResource() {
    return group.isEmpty() ? resource : resource + "." + group;
  }

  @Override
  public String toString() {
    return groupVersion() + "/" + resource;
  }
}
