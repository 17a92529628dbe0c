package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.List;
import java.util.Objects;

/**
 * Device metadata (KEP-5304, Kubernetes 1.36+, alpha): for every prepared request the plugin
 * writes a {@code metadata.json} with the devices' attributes (from {@link
 * PreparedDevice#metadata()}) and a CDI spec that mounts it read-only into the container, adds
 * that CDI ID to the claim's devices, and removes both on unprepare. The CDI specs go to {@link
 * KubeletPluginBuilder#cdiDirectory}. Set with {@link KubeletPluginBuilder#metadata}.
 *
 * @param enabled whether device metadata is written; default off
 * @param versions metadata API versions to write, newest first; unknown ones are skipped. Default
 *     {@code metadata.resource.k8s.io/v1alpha1} (the Go helper defaults to none, which makes
 *     enabling the feature fail; dra4j uses the version its documentation promises)
 */
@KubernetesAlpha(feature = "KEP-5304", since = "1.36")
public record MetadataOptions(boolean enabled, List<String> versions) {

  /** The defaults: off, version {@code metadata.resource.k8s.io/v1alpha1}. */
  public static final MetadataOptions DEFAULTS = new MetadataOptions(false,
      List.of("metadata.resource.k8s.io/v1alpha1"));

  /**
   * Checks the options.
   *
   * @param enabled whether device metadata is written
   * @param versions the metadata API versions, newest first
   * @throws NullPointerException if {@code versions} or one of them is null
   */
  public MetadataOptions {
    versions = List.copyOf(Objects.requireNonNull(versions, "metadataVersions"));
  }

  /**
   * These options with device metadata on or off.
   *
   * @param on true to enable
   * @return the new options
   */
  public MetadataOptions withEnabled(boolean on) {
    return new MetadataOptions(on, versions);
  }

  /**
   * These options with other metadata API versions.
   *
   * @param newestFirst group/version strings
   * @return the new options
   */
  public MetadataOptions withVersions(String... newestFirst) {
    Objects.requireNonNull(newestFirst, "metadataVersions");
    for (String version : newestFirst) {
      Objects.requireNonNull(version, "metadataVersions element");
    }
    return new MetadataOptions(enabled, List.of(newestFirst));
  }
}
