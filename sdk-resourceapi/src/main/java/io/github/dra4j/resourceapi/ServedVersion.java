package io.github.dra4j.resourceapi;

/**
 * One kind of {@code resource.k8s.io} in one API version, as Kubernetes 1.36 serves it. Immutable.
 *
 * @param kind e.g. {@code ResourceSlice}
 * @param version e.g. {@code v1beta2}
 * @param resource the plural resource name, e.g. {@code resourceslices}
 * @param namespaced whether the kind's objects live in namespaces
 * @param enabledByDefault whether the version is on without {@code --runtime-config}
 */
public record ServedVersion(String kind, String version, String resource, boolean namespaced,
    boolean enabledByDefault) {

  /**
   * Returns the group-version.
   *
   * @return e.g. {@code resource.k8s.io/v1beta2}
   */
  public String groupVersion() {
    return "resource.k8s.io/" + version;
  }
}
