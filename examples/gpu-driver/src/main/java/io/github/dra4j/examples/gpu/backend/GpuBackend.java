package io.github.dra4j.examples.gpu.backend;

import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.discovery.Gpu;
import io.github.dra4j.examples.gpu.discovery.GpuDiscovery;
import io.github.dra4j.examples.gpu.discovery.MigDevice;
import io.github.dra4j.examples.gpu.health.HealthSource;
import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import java.util.List;
import java.util.Optional;

/**
 * Everything the driver needs from the GPUs' side, chosen once at start: simulated GPUs (the
 * default) or NVIDIA GPUs through NVML. The driver owns the backend and closes it when it stops.
 */
public interface GpuBackend extends AutoCloseable {

  /**
   * Finds the GPUs.
   *
   * @return the discovery
   */
  GpuDiscovery discovery();

  /**
   * Watches the GPUs' health.
   *
   * @return the health source
   */
  HealthSource health();

  /**
   * Applies sharing settings.
   *
   * @return the commands
   */
  SharingCommands sharing();

  /**
   * The device nodes a container needs for one GPU or one MIG device of it, beside {@link
   * #commonEdits()}.
   *
   * @param gpu the GPU
   * @param mig the MIG device, if the allocated device is one
   * @return the nodes; none for simulated GPUs
   */
  List<HostDeviceNode> deviceNodes(Gpu gpu, Optional<MigDevice> mig);

  /**
   * What every container with a GPU needs, in the node-wide CDI device: the control device nodes,
   * and the driver's user-space files (libraries, binaries, firmware, IPC sockets) as mounts with
   * the hooks that make their links and linker-cache entries. Read once, when the driver starts.
   *
   * @return the edits; empty for simulated GPUs
   * @throws DiscoveryException if the driver's installation lacks a file containers cannot do
   *     without (such as {@code libcuda.so.<version>}), naming every path tried
   */
  ContainerEdits commonEdits() throws DiscoveryException;

  /** Releases the backend; must not throw. */
  @Override
  void close();
}
