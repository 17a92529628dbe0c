/**
 * The NVIDIA driver's user-space files that a GPU container needs, found under the driver root
 * and turned into CDI edits: the libraries of the running driver version for the chosen driver
 * capabilities (from the root's linker cache, read by {@link
 * io.github.dra4j.examples.gpu.nvml.driverfiles.LdCache}, with a directory search as fallback),
 * the utility and compute binaries, the GSP firmware, the daemons' IPC sockets, and the {@code
 * nvidia-cdi-hook} hooks that make the libraries' links and linker-cache entries in the
 * container. Start with {@link io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFilesFinder}
 * and {@link io.github.dra4j.examples.gpu.nvml.driverfiles.DriverFileEdits}.
 */
package io.github.dra4j.examples.gpu.nvml.driverfiles;
