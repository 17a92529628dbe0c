package io.github.dra4j.lifecycle.internal.checkpoint;

import java.util.List;

/**
 * One device as it was answered to the kubelet for a prepared claim: which requests it serves,
 * which device it is and the CDI device IDs containers get. Immutable: the lists are copied and
 * unmodifiable.
 *
 * @param requests the request names the device serves ({@code <request>} or {@code
 *     <request>/<subrequest>}); null becomes empty
 * @param pool the pool of the device; not empty
 * @param device the device name within the pool; not empty
 * @param cdiDeviceIds the fully qualified CDI device IDs ({@code vendor.com/class=name}); null
 *     becomes empty
 * @param shareId the share ID of a device that can be allocated more than once, or null
 */
public record StoredDevice(
    List<String> requests, String pool, String device, List<String> cdiDeviceIds, String shareId) {

  /**
   * Checks and copies the fields.
   *
   * @throws NullPointerException if a list holds null
   * @throws IllegalArgumentException if pool or device is null or empty
   */
  public StoredDevice {
    requests = requests == null ? List.of() : List.copyOf(requests);
    pool = CheckpointValues.required("pool", pool);
    device = CheckpointValues.required("device", device);
    cdiDeviceIds = cdiDeviceIds == null ? List.of() : List.copyOf(cdiDeviceIds);
  }
}
