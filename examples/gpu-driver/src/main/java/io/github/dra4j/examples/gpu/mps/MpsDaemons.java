package io.github.dra4j.examples.gpu.mps;

import io.github.dra4j.cdi.spec.ContainerEdits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Starts and stops the MPS control daemons of claim groups, one per group, each with its own
 * directory {@code <plugin dir>/mps/<id>} ({@link MpsDirectories}). {@link ControlDaemons} runs
 * {@code nvidia-cuda-mps-control}; {@link LoggedMpsDaemons} (simulated GPUs) only makes the
 * directories. Every method must be safe to call again after a crash: {@link #stop} succeeds
 * where nothing runs and nothing is left.
 */
public interface MpsDaemons {

  /** Told the daemon's process as soon as it is known, before it is configured. */
  @FunctionalInterface
  interface Launched {
    /**
     * Records the daemon, so that a crash from here on can stop exactly it.
     *
     * @param daemon the daemon's process
     * @throws IOException if it cannot be recorded; the start then fails (and is undone)
     */
    void launched(DaemonProcess daemon) throws IOException;
  }

  /**
   * Makes the group's directories, starts its daemon with the group's devices visible, waits
   * until it answers and sends the group's control commands.
   *
   * @param group the group
   * @param pluginDataDirectory the plugin's data directory
   * @param launched told the daemon's process before it is configured
   * @return the daemon's process; none where no process runs (simulated GPUs)
   * @throws IOException if it cannot be started, does not answer in time or refuses a command;
   *     the caller then {@link #stop stops} it
   */
  Optional<DaemonProcess> start(MpsGroup group, Path pluginDataDirectory, Launched launched)
      throws IOException;

  /**
   * Whether a daemon started earlier still runs.
   *
   * @param daemon the process {@link #start} gave
   * @return true if that very process runs
   */
  boolean isRunning(DaemonProcess daemon);

  /**
   * Stops the daemon of a directory and removes the directory: {@code quit} through its pipe
   * directory, a bounded wait, then SIGKILL for the daemon if it is still there. Succeeds when
   * nothing runs and nothing is there.
   *
   * @param directory the daemon's directory
   * @param daemon the daemon's process if recorded
   * @param launchedAfter a time (clock ticks since boot) before the daemon was launched, if
   *     recorded: then a daemon named by its pid file and started after it is stopped too
   * @throws IOException if the directory cannot be removed
   */
  void stop(Path directory, Optional<DaemonProcess> daemon, OptionalLong launchedAfter)
      throws IOException;

  /**
   * The time before a launch, for {@link #stop}'s {@code launchedAfter}.
   *
   * @return clock ticks since boot, if known
   */
  OptionalLong nowTicks();

  /**
   * What a container of the group gets; see {@link MpsDirectories#containerEdits}.
   *
   * @param group the group
   * @param pluginDataDirectory the plugin's data directory
   * @return the edits
   */
  default ContainerEdits containerEdits(MpsGroup group, Path pluginDataDirectory) {
    return MpsDirectories.containerEdits(group.directory(pluginDataDirectory));
  }

  /**
   * Stops the daemons and removes the directories under {@code <plugin dir>/mps} whose ID is not
   * kept: what a crash left of claims that are no longer prepared.
   *
   * @param pluginDataDirectory the plugin's data directory
   * @param keep the IDs of daemons that belong to prepared or half-done claims
   * @return the directories removed
   * @throws IOException if the directory cannot be listed or one cannot be removed
   */
  default List<Path> sweep(Path pluginDataDirectory, Set<String> keep) throws IOException {
    Path root = MpsDirectories.root(pluginDataDirectory);
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<Path> removed = new ArrayList<>();
    try (Stream<Path> entries = Files.list(root)) {
      for (Path entry : entries.sorted().toList()) {
        if (!keep.contains(entry.getFileName().toString())) {
          stop(entry, Optional.empty(), OptionalLong.empty());
          removed.add(entry);
        }
      }
    }
    return removed;
  }
}
