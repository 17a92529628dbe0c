package io.github.dra4j.resourceapi.internal.conversion;

import io.github.dra4j.resourceapi.ServedVersion;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which {@code resource.k8s.io} versions Kubernetes 1.36 serves for which kind, and whether each
 * is enabled by default ({@code pkg/registry/resource/rest/storage_resource.go} and the
 * control plane's default resource configuration: beta and alpha versions are off unless enabled
 * with {@code --runtime-config}).
 *
 * <pre>
 * kind                      v1          v1beta2     v1beta1     v1alpha3
 * DeviceClass               on          off         off         -
 * ResourceClaim (+status)   on          off         off         -
 * ResourceClaimTemplate     on          off         off         -
 * ResourceSlice             on          off         off         -
 * DeviceTaintRule (+status) - (1.37)    off (new)   -           off
 * </pre>
 *
 * <p>{@code v1alpha3} also serves ResourcePoolStatusRequest (alpha, gate DRAResourcePoolStatus),
 * which this library does not model. The storage version of every kind is {@code v1} (of
 * DeviceTaintRule: {@code v1beta2}, as {@code v1} does not exist in 1.36). Kubernetes 1.37 adds
 * {@code v1} DeviceTaintRule (GA).
 */
public final class ServedVersions {

  /** The API group. */
  public static final String GROUP = "resource.k8s.io";

  private static final Map<String, Map<String, Boolean>> SERVED = served();
  private static final Map<String, String> RESOURCES = Map.of(
      "DeviceClass", "deviceclasses", "ResourceClaim", "resourceclaims",
      "ResourceClaimTemplate", "resourceclaimtemplates", "ResourceSlice", "resourceslices",
      "DeviceTaintRule", "devicetaintrules");
  private static final Set<String> NAMESPACED = Set.of("ResourceClaim", "ResourceClaimTemplate");

  private ServedVersions() {}

  /**
   * Returns the versions that serve a kind, each with whether it is enabled by default.
   *
   * @param kind e.g. {@code ResourceSlice}
   * @return version ({@code v1}, ...) to enabled-by-default, empty for an unknown kind
   */
  public static Map<String, Boolean> versions(String kind) {
    return SERVED.getOrDefault(kind, Map.of());
  }

  /**
   * Tells whether a version serves a kind at all (enabled or not).
   *
   * @param kind e.g. {@code DeviceTaintRule}
   * @param version e.g. {@code v1beta2}
   * @return true if served
   */
  public static boolean serves(String kind, String version) {
    return versions(kind).containsKey(version);
  }

  /**
   * Lists every kind in every version it is served in.
   *
   * @return the served versions, by kind, newest version first
   */
  public static List<ServedVersion> all() {
    List<ServedVersion> all = new ArrayList<>();
    SERVED.forEach((kind, versions) -> versions.forEach((version, enabled) -> all.add(
        new ServedVersion(kind, version, RESOURCES.get(kind), NAMESPACED.contains(kind),
            enabled))));
    return List.copyOf(all);
  }

  private static Map<String, Map<String, Boolean>> served() {
    Map<String, Map<String, Boolean>> map = new LinkedHashMap<>();
    for (String kind : new String[] {"DeviceClass", "ResourceClaim", "ResourceClaimTemplate",
        "ResourceSlice"}) {
      Map<String, Boolean> versions = new LinkedHashMap<>();
      versions.put("v1", true);
      versions.put("v1beta2", false);
      versions.put("v1beta1", false);
      map.put(kind, Collections.unmodifiableMap(versions));
    }
    Map<String, Boolean> rules = new LinkedHashMap<>();
    rules.put("v1beta2", false);
    rules.put("v1alpha3", false);
    map.put("DeviceTaintRule", Collections.unmodifiableMap(rules));
    return Collections.unmodifiableMap(map);
  }
}
