/**
 * The NVIDIA backend of the GPU driver: real GPUs through NVML ({@code libnvidia-ml.so.1}),
 * loaded with JNA from the driver root.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.examples.gpu.nvml.NvmlBackend}: the {@code GpuBackend}, opened
 *       with {@link io.github.dra4j.examples.gpu.nvml.NvmlBackend#open(NvmlOptions)}; it finds
 *       the library, initializes NVML and owns that session until it is closed;
 *   <li>{@link io.github.dra4j.examples.gpu.nvml.NvmlOptions}: the driver roots, the Xids to
 *       ignore, the health timing, and test seams (explicit library, sysfs and procfs roots),
 *       also read from the environment;
 *   <li>discovery ({@code NvmlDiscovery}, {@code MigReader}): GPUs and their static MIG devices,
 *       every value from an NVML call;
 *   <li>health ({@code NvmlHealthSource}, {@code HealthState}): Xid, double-bit ECC and lost-GPU
 *       conditions from NVML events and periodic checks, which clear again without a restart;
 *   <li>{@link io.github.dra4j.examples.gpu.nvml.NvidiaSmiCommands}: time slicing and MPS
 *       through {@code nvidia-smi}, run by a {@link
 *       io.github.dra4j.examples.gpu.nvml.CommandRunner};
 *   <li>device nodes ({@code NvmlDeviceNodes}, {@code DriverRoot}): {@code /dev/nvidia<minor>},
 *       MIG capability nodes and the control nodes, with host paths under the host driver root.
 * </ul>
 *
 * <p>The JNA binding itself is in the {@code internal} subpackage. Tests run all of it against
 * a stub of NVML compiled from {@code src/test/c/nvml-stub/nvml_stub.c}.
 */
package io.github.dra4j.examples.gpu.nvml;
