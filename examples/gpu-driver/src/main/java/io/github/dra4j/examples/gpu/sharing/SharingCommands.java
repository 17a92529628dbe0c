package io.github.dra4j.examples.gpu.sharing;

import java.io.IOException;
import java.util.List;

/**
 * Applies sharing settings to GPUs on the node. The NVML backend runs {@code nvidia-smi}; the
 * simulated backend only logs; tests record the calls.
 */
public interface SharingCommands {

  /**
   * Applies a sharing setting to GPUs.
   *
   * @param setting the setting
   * @param gpuUuids the GPUs, by UUID
   * @throws IOException if a command failed, with its output
   */
  void apply(SharingSetting setting, List<String> gpuUuids) throws IOException;

  /**
   * Returns GPUs to the node's defaults (compute mode and time slice), after their claim is gone.
   * Must succeed when nothing was applied.
   *
   * @param gpuUuids the GPUs, by UUID
   * @throws IOException if a command failed, with its output
   */
  void reset(List<String> gpuUuids) throws IOException;
}
