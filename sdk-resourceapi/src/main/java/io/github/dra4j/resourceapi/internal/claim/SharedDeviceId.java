package io.github.dra4j.resourceapi.internal.claim;

import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatus;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which allocated device, or which share of a device that allows several allocations, a status
 * entry is about: the driver, pool and device names and the share's ID (empty for none). Equal
 * ids name the same allocation. {@link #toString()} prints it as the API server does in its
 * messages, {@code <driver>/<pool>/<device>} followed by {@code /<shareID>} for a share.
 *
 * @param driver the driver's name
 * @param pool the pool's name
 * @param device the device's name
 * @param shareId the share's ID, empty for a whole device
 */
record SharedDeviceId(String driver, String pool, String device, String shareId) {

  /**
   * Normalizes missing names to empty ones.
   *
   * @param driver the driver's name, null taken as empty
   * @param pool the pool's name, null taken as empty
   * @param device the device's name, null taken as empty
   * @param shareId the share's ID, null (none) taken as empty
   */
  SharedDeviceId {
    driver = driver == null ? "" : driver;
    pool = pool == null ? "" : pool;
    device = device == null ? "" : device;
    shareId = shareId == null ? "" : shareId;
  }

  /**
   * The id of an allocated device.
   *
   * @param result one allocation result
   * @return its id
   */
  static SharedDeviceId of(DeviceRequestAllocationResult result) {
    return new SharedDeviceId(result.getDriver(), result.getPool(), result.getDevice(),
        result.getShareID());
  }

  /**
   * The id a device status entry refers to.
   *
   * @param status one entry of {@code status.devices}
   * @return its id
   */
  static SharedDeviceId of(AllocatedDeviceStatus status) {
    return new SharedDeviceId(status.getDriver(), status.getPool(), status.getDevice(),
        status.getShareID());
  }

  /**
   * The id as the server prints it in a message: Go's {@code structured.SharedDeviceID}, whose
   * names are unique strings written as JSON strings.
   *
   * @return the struct of the driver, pool, device and share ID
   */
  GoValues.Struct printed() {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Driver", driver);
    fields.put("Pool", pool);
    fields.put("Device", device);
    fields.put("ShareID", shareId);
    return new GoValues.Struct(fields);
  }

  /**
   * Prints the id as the server's messages show it.
   *
   * @return {@code <driver>/<pool>/<device>[/<shareID>]}
   */
  @Override
  public String toString() {
    String id = driver + "/" + pool + "/" + device;
    return shareId.isEmpty() ? id : id + "/" + shareId;
  }
}
