package io.github.dra4j.kubeletplugin;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.NetworkDeviceData;
import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.Map;

/**
 * What containers may learn about a prepared device through the device-metadata file (KEP-5304),
 * when {@link MetadataOptions#enabled() device metadata} is on.
 *
 * @param attributes device attributes keyed by qualified name, in the resource API's form
 * @param networkData network details of a network device, or null
 */
@KubernetesAlpha(feature = "KEP-5304", since = "1.36")
public record DeviceMetadata(Map<String, DeviceAttribute> attributes,
    NetworkDeviceData networkData) {

  /**
   * Copies the attribute map.
   *
   * @param attributes device attributes keyed by qualified name ({@code domain/id}), in the
   *     resource API's form; null becomes an empty map, otherwise an unmodifiable copy is kept
   *     (the {@link DeviceAttribute} objects themselves are not copied)
   * @param networkData the interface name, IP addresses and hardware address of a network device,
   *     or null for a device that is not one
   */
  public DeviceMetadata {
    attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
  }
}
