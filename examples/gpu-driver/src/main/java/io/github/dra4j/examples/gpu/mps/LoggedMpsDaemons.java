package io.github.dra4j.examples.gpu.mps;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MPS for simulated GPUs: no daemon runs, but each group gets its real (empty) directories, so
 * its containers get the same mounts and environment as on NVIDIA GPUs; stop removes them.
 * Stateless; thread-safe.
 */
public final class LoggedMpsDaemons implements MpsDaemons {

  private static final Logger LOG = LoggerFactory.getLogger(LoggedMpsDaemons.class);

  /** Creates the stand-in; it keeps no state. */
  public LoggedMpsDaemons() {}

  @Override
  public Optional<DaemonProcess> start(MpsGroup group, Path pluginDataDirectory,
      Launched launched) throws IOException {
    Path directory = group.directory(pluginDataDirectory);
    MpsDirectories.create(directory);
    LOG.info("Simulated GPUs {}: MPS daemon {} not started (simulated), directory {}{}",
        group.uuids(), group.id(), directory, group.commands().isEmpty() ? ""
            : ", commands " + group.commands());
    return Optional.empty();
  }

  @Override
  public boolean isRunning(DaemonProcess daemon) {
    return false;
  }

  @Override
  public void stop(Path directory, Optional<DaemonProcess> daemon, OptionalLong launchedAfter)
      throws IOException {
    MpsDirectories.remove(directory);
  }

  @Override
  public OptionalLong nowTicks() {
    return OptionalLong.empty();
  }
}
