package io.github.dra4j.examples.gpu.prepare;

import java.util.List;

/**
 * What the driver stores in the checkpoint for a prepared claim: the GPUs whose sharing it set,
 * to be reset when the claim is unprepared (after a restart too).
 *
 * @param configuredGpus UUIDs of the GPUs whose sharing setting this claim changed
 */
public record GpuClaimState(List<String> configuredGpus) {

  /**
   * Copies the list.
   *
   * @param configuredGpus null means none
   */
  public GpuClaimState {
    configuredGpus = configuredGpus == null ? List.of() : List.copyOf(configuredGpus);
  }
}
