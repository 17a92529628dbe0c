package io.github.dra4j.kubeletplugin;

import io.github.dra4j.cdi.name.QualifiedDeviceName;
import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * One device a prepared claim gives to containers.
 *
 * @param requests the claim requests this device serves, each a request's name or {@code
 *     <request>/<subrequest>}; empty means all requests of the claim. Sub-request parts are
 *     stripped before the kubelet sees them, because containers only reference top-level requests.
 * @param poolName the pool of the device (required)
 * @param deviceName the device name within its pool (required)
 * @param cdiDeviceIds fully qualified CDI device IDs ({@code vendor/class=name}) for the container
 *     runtime; may be empty
 * @param shareId for devices allocated as shares (consumable capacity: Kubernetes feature
 *     DRAConsumableCapacity, alpha in 1.34, beta and on by default in 1.36), the share ID; null if
 *     none. Sent to kubelets that speak v1 of the DRA service; dropped for v1beta1.
 * @param metadata what containers may read about the device when device metadata is on; null for
 *     none. Devices serving all requests (empty {@code requests}) get no metadata.
 */
public record PreparedDevice(
    List<String> requests,
    String poolName,
    String deviceName,
    List<String> cdiDeviceIds,
    @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36") String shareId,
    @KubernetesAlpha(feature = "KEP-5304", since = "1.36") DeviceMetadata metadata) {

  /**
   * Copies lists and rejects nulls (other than {@code shareId} and {@code metadata}).
   *
   * @param requests the claim requests this device serves (a request's name or {@code
   *     <request>/<subrequest>}), copied; empty means all requests of the claim
   * @param poolName the pool of the device, as published in its ResourceSlice; not null
   * @param deviceName the device name within its pool; not null
   * @param cdiDeviceIds fully qualified CDI device IDs ({@code vendor/class=name}) for the
   *     container runtime, copied; may be empty
   * @param shareId the share ID of a device allocated as a share (consumable capacity), or null;
   *     only kubelets speaking v1 of the DRA service receive it
   * @param metadata what containers may read about the device when device metadata is on, or null
   *     for none
   * @throws NullPointerException if a list, a list element or a name is null
   */
  public PreparedDevice {
    requests = List.copyOf(requests);
    Objects.requireNonNull(poolName, "poolName");
    Objects.requireNonNull(deviceName, "deviceName");
    cdiDeviceIds = List.copyOf(cdiDeviceIds);
  }

  /**
   * Starts a builder for a device of a pool.
   *
   * @param poolName the pool name
   * @param deviceName the device name
   * @return a builder
   */
  public static Builder builder(String poolName, String deviceName) {
    return new Builder(poolName, deviceName);
  }

  /** Builds a {@link PreparedDevice}; not thread-safe, use from one thread. */
  public static final class Builder {
    private final String poolName;
    private final String deviceName;
    private final List<String> requests = new ArrayList<>();
    private final List<String> cdiDeviceIds = new ArrayList<>();
    private String shareId;
    private DeviceMetadata metadata;

    private Builder(String poolName, String deviceName) {
      this.poolName = poolName;
      this.deviceName = deviceName;
    }

    /**
     * Adds claim requests this device serves.
     *
     * @param names request names ({@code req} or {@code req/sub})
     * @return this builder
     */
    public Builder request(String... names) {
      requests.addAll(List.of(names));
      return this;
    }

    /**
     * Adds CDI device IDs.
     *
     * @param ids fully qualified CDI device IDs ({@code vendor/class=name})
     * @return this builder
     */
    public Builder cdiDeviceId(String... ids) {
      cdiDeviceIds.addAll(List.of(ids));
      return this;
    }

    /**
     * Adds CDI device IDs as dra4j-cdi names them, for example those of {@link
     * io.github.dra4j.cdi.spec.CdiSpec#qualifiedDeviceNames()} of the spec just written.
     *
     * @param ids qualified CDI device names
     * @return this builder
     */
    public Builder cdiDeviceId(QualifiedDeviceName... ids) {
      for (QualifiedDeviceName id : ids) {
        cdiDeviceIds.add(id.toString());
      }
      return this;
    }

    /**
     * Adds CDI device IDs as dra4j-cdi names them.
     *
     * @param ids qualified CDI device names, in order
     * @return this builder
     */
    public Builder cdiDeviceIds(Collection<QualifiedDeviceName> ids) {
      ids.forEach(id -> cdiDeviceIds.add(id.toString()));
      return this;
    }

    /**
     * Sets the share ID of a shared device.
     *
     * @param id the share ID
     * @return this builder
     */
    @KubernetesAlpha(feature = "DRAConsumableCapacity", since = "1.34", beta = "1.36")
    public Builder shareId(String id) {
      this.shareId = id;
      return this;
    }

    /**
     * Sets what containers may read about the device (device metadata).
     *
     * @param metadata attributes and network data
     * @return this builder
     */
    @KubernetesAlpha(feature = "KEP-5304", since = "1.36")
    public Builder metadata(DeviceMetadata metadata) {
      this.metadata = metadata;
      return this;
    }

    /**
     * Builds the device.
     *
     * @return an immutable device
     */
    public PreparedDevice build() {
      return new PreparedDevice(requests, poolName, deviceName, cdiDeviceIds, shareId, metadata);
    }
  }
}
