/**
 * The node's devices: what a device is ({@link ${package}.devices.DeviceInfo}), where devices
 * come from and how one is set up ({@link ${package}.devices.DeviceBackend}), and the simulated
 * backend the driver runs on until a real one replaces it.
 */
package ${package}.devices;
