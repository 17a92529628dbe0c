package io.github.dra4j.examples.gpu.sharing;

import io.github.dra4j.examples.gpu.mps.LoggedMpsDaemons;
import io.github.dra4j.examples.gpu.mps.MpsDaemons;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sharing commands of simulated GPUs: nothing to change on hardware, so each setting is only
 * logged (the containers still see it in their environment), and MPS groups get their real,
 * empty directories ({@link LoggedMpsDaemons}). Stateless; thread-safe.
 */
public final class LoggedSharingCommands implements SharingCommands {

  private static final Logger LOG = LoggerFactory.getLogger(LoggedSharingCommands.class);

  private final MpsDaemons mps = new LoggedMpsDaemons();

  /** Creates the stand-in with its own logging MPS daemons. */
  public LoggedSharingCommands() {}

  @Override
  public void apply(SharingSetting setting, List<String> gpuUuids) {
    LOG.info("Simulated GPUs {}: sharing set to {}", gpuUuids, setting);
  }

  @Override
  public void reset(SharingSetting applied, List<String> gpuUuids) {
    LOG.info("Simulated GPUs {}: sharing reset from {} to the default", gpuUuids, applied);
  }

  @Override
  public MpsDaemons mps() {
    return mps;
  }
}
