package io.github.dra4j.examples.gpu.backend;

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
   * #commonDeviceNodes()}.
   *
   * @param gpu the GPU
   * @param mig the MIG device, if the allocated device is one
   * @return the nodes; none for simulated GPUs
   */
  List<HostDeviceNode> deviceNodes(Gpu gpu, Optional<MigDevice> mig);

  /**
   * The device nodes every container with a GPU needs (control devices), in the node-wide CDI
   * device.
   *
   * @return the nodes; none for simulated GPUs
   */
  List<HostDeviceNode> commonDeviceNodes();

  /** Releases the backend; must not throw. */
  @Override
  void close();
}
