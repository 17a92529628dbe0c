package io.github.dra4j.examples.gpu.sharing;

import io.github.dra4j.examples.gpu.mps.MpsDaemons;
import java.io.IOException;
import java.util.List;

/**
 * Applies sharing settings to GPUs on the node and undoes them, and runs the MPS daemons of
 * claims ({@link #mps()}). The NVML backend runs {@code nvidia-smi} and {@code
 * nvidia-cuda-mps-control}; the simulated backend only logs; tests record the calls.
 */
public interface SharingCommands {

  /**
   * Applies a sharing setting to whole GPUs: time slicing sets the default compute mode and the
   * time slice; MPS sets the exclusive-process compute mode (the daemon is {@link #mps()}'s).
   *
   * @param setting the setting
   * @param gpuUuids the GPUs, by UUID
   * @throws IOException if a command failed, with its output
   */
  void apply(SharingSetting setting, List<String> gpuUuids) throws IOException;

  /**
   * Undoes {@link #apply} after the claim is gone: for time slicing the compute mode and the
   * time slice go back to the defaults, for MPS the compute mode only. Must succeed where nothing
   * was applied.
   *
   * @param applied the setting that was applied
   * @param gpuUuids the GPUs, by UUID
   * @throws IOException if a command failed or cannot run, with the command and its output
   */
  void reset(SharingSetting applied, List<String> gpuUuids) throws IOException;

  /**
   * The MPS control daemons.
   *
   * @return the daemons' runner
   */
  MpsDaemons mps();
}
