/**
 * The driver's devices: their names ({@link io.github.dra4j.examples.gpu.devices.DeviceNames}),
 * types, attributes, capacities and counter sets, built from the discovered GPUs into the pool
 * the driver publishes ({@link io.github.dra4j.examples.gpu.devices.DeviceCatalog}).
 */
package io.github.dra4j.examples.gpu.devices;
