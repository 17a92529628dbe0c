package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.examples.gpu.backend.GpuBackend;

/** Opens the NVML backend from the driver's settings. */
final class NvmlBackends {

  private NvmlBackends() {}

  static GpuBackend open(DriverSettings settings) throws Exception {
    throw new UnsupportedOperationException("GPU_BACKEND=nvml is not wired yet");
  }
}
