/**
 * The driver's opaque configuration API, group and version {@value
 * io.github.dra4j.examples.gpu.config.GpuConfigs#API_VERSION}: {@link
 * io.github.dra4j.examples.gpu.config.GpuConfig} for GPUs and partitions, {@link
 * io.github.dra4j.examples.gpu.config.MigDeviceConfig} for MIG devices; and NVIDIA's, {@value
 * io.github.dra4j.examples.gpu.config.GpuConfigs#NVIDIA_API_VERSION}, for users switching from
 * NVIDIA's DRA driver ({@link io.github.dra4j.examples.gpu.config.NvidiaGpuConfig}, {@link
 * io.github.dra4j.examples.gpu.config.NvidiaMigDeviceConfig}). One scheme for the plugin and the
 * webhook ({@link io.github.dra4j.examples.gpu.config.GpuConfigs}); every configuration gives its
 * sharing setting through {@link io.github.dra4j.examples.gpu.config.SharingConfig}.
 */
package io.github.dra4j.examples.gpu.config;
