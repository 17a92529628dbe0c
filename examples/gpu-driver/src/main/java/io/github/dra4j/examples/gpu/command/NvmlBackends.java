package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.examples.gpu.backend.GpuBackend;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.nvml.NvmlBackend;
import io.github.dra4j.examples.gpu.nvml.NvmlOptions;

/** Opens the NVML backend from the driver's settings. */
final class NvmlBackends {

  private NvmlBackends() {}

  static GpuBackend open(DriverSettings settings) throws DiscoveryException {
    return NvmlBackend.open(NvmlOptions.builder()
        .containerDriverRoot(settings.containerDriverRoot())
        .hostDriverRoot(settings.hostDriverRoot())
        .additionalXidsToIgnore(settings.additionalXidsToIgnore())
        .driverFiles(settings.driverFiles())
        .mpsTimeouts(settings.mpsTimeouts())
        .build());
  }
}
