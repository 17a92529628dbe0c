package io.github.dra4j.examples.gpu.sharing;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sharing commands of simulated GPUs: nothing to change on hardware, so each setting is only
 * logged (the containers still see it in their environment). Stateless; thread-safe.
 */
public final class LoggedSharingCommands implements SharingCommands {

  private static final Logger LOG = LoggerFactory.getLogger(LoggedSharingCommands.class);

  @Override
  public void apply(SharingSetting setting, List<String> gpuUuids) {
    LOG.info("Simulated GPUs {}: sharing set to {}", gpuUuids, setting);
  }

  @Override
  public void reset(List<String> gpuUuids) {
    LOG.info("Simulated GPUs {}: sharing reset to the default", gpuUuids);
  }
}
