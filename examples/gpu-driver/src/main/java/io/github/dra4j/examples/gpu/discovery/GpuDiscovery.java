package io.github.dra4j.examples.gpu.discovery;

import java.util.List;

/**
 * Finds the GPUs of this node. Two implementations: {@code SimulatedGpus} (the default, no
 * hardware needed) and the NVML backend's (NVIDIA GPUs
 * through NVML).
 */
public interface GpuDiscovery extends AutoCloseable {

  /**
   * Finds the node's GPUs, ordered by minor number.
   *
   * @return the GPUs; empty if the node has none
   * @throws DiscoveryException if the backend cannot be read, with what was tried
   */
  List<Gpu> discover() throws DiscoveryException;

  /**
   * A short description for the start-up log, for example {@code simulated, 8 GPUs} or {@code
   * NVML 12.570.86.15 from /driver-root/usr/lib64/libnvidia-ml.so.1}.
   *
   * @return the description
   */
  String describe();

  /** Releases the backend (NVML's handle); the default does nothing. */
  @Override
  default void close() {}
}
