package io.github.dra4j.resourceslice.internal.client;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The {@code resource.k8s.io} versions a ResourceSlice can be written in, newest first, with the
 * fabric8 model class of each. {@link #next()} gives the order of the version-negotiating client
 * (v1, v1beta2, v1beta1, then around again).
 */
public enum SliceVersion {
  /** {@code resource.k8s.io/v1} (Kubernetes 1.34+). */
  V1("resource.k8s.io/v1", io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice.class),
  /** {@code resource.k8s.io/v1beta2} (Kubernetes 1.33+). */
  V1BETA2("resource.k8s.io/v1beta2",
      io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceSlice.class),
  /** {@code resource.k8s.io/v1beta1} (Kubernetes 1.32+); devices nest their fields in {@code basic}. */
  V1BETA1("resource.k8s.io/v1beta1",
      io.fabric8.kubernetes.api.model.resource.v1beta1.ResourceSlice.class);

  private final String apiVersion;
  private final Class<? extends HasMetadata> type;

  SliceVersion(String apiVersion, Class<? extends HasMetadata> type) {
    this.apiVersion = apiVersion;
    this.type = type;
  }

  /**
   * Returns the {@code apiVersion}.
   *
   * @return e.g. {@code resource.k8s.io/v1beta2}
   */
  public String apiVersion() {
    return apiVersion;
  }

  /**
   * Returns the fabric8 model class of ResourceSlice in this version.
   *
   * @return the class
   */
  public Class<? extends HasMetadata> type() {
    return type;
  }

  /**
   * Returns the model class typed for fabric8's {@code client.resources(...)}, which the
   * version-independent client code works with.
   *
   * @return the class, as a class of {@link HasMetadata}
   */
  @SuppressWarnings("unchecked")
  Class<HasMetadata> resourceType() {
    return (Class<HasMetadata>) type;
  }

  /**
   * Returns the version to try after this one answered Not Found.
   *
   * @return the next older version, or v1 after v1beta1
   */
  public SliceVersion next() {
    return switch (this) {
      case V1 -> V1BETA2;
      case V1BETA2 -> V1BETA1;
      case V1BETA1 -> V1;
    };
  }
}
