/**
 * The driver's opaque configuration API, group and version {@value
 * io.github.dra4j.examples.gpu.config.GpuConfigs#API_VERSION}: {@link
 * io.github.dra4j.examples.gpu.config.GpuConfig} for GPUs and partitions, {@link
 * io.github.dra4j.examples.gpu.config.MigDeviceConfig} for MIG devices, with one scheme for the
 * plugin and the webhook ({@link io.github.dra4j.examples.gpu.config.GpuConfigs}).
 */
package io.github.dra4j.examples.gpu.config;
