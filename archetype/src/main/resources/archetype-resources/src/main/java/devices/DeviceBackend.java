package ${package}.devices;

import ${package}.config.DriverConfig;
import java.util.List;

/**
 * Where the driver's devices come from, and how one is set up for a claim and put back after.
 * The generated driver runs on {@link SimulatedDevices}; a real driver implements this against
 * its hardware (a vendor library, sysfs, a device file) and keeps everything else.
 *
 * <p>The SDK's claim lifecycle calls {@link #apply} and {@link #reset} for one claim at a time,
 * but a crash can come between the hardware work and the SDK's record of it, so both must be
 * idempotent: applying a setting twice, or resetting a device that was never configured,
 * succeeds.
 */
public interface DeviceBackend {

  /**
   * Finds the node's devices.
   *
   * @return the devices, in a stable order
   * @throws Exception if the hardware cannot be read; the driver does not start
   */
  List<DeviceInfo> discover() throws Exception;

  /**
   * Applies a claim's configuration to a device before a container gets it.
   *
   * @param device one of the devices {@link #discover()} found
   * @param config the configuration, decoded and validated
   * @throws Exception if the device cannot be configured; the claim's prepare fails and the
   *     kubelet retries it
   */
  void apply(DeviceInfo device, DriverConfig config) throws Exception;

  /**
   * Puts a device back to its own settings.
   *
   * @param device one of the devices {@link #discover()} found
   * @throws Exception if the device cannot be reset; the claim stays prepared and the kubelet
   *     retries
   */
  void reset(DeviceInfo device) throws Exception;
}
