package io.github.dra4j.examples.gpu.prepare;

import io.github.dra4j.examples.gpu.mps.DaemonProcess;
import io.github.dra4j.examples.gpu.mps.MpsDaemonId;
import io.github.dra4j.examples.gpu.mps.MpsGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The driver's write-ahead record of what a claim changed on the node, stored as JSON in {@code
 * <plugin dir>/gpu-claims/<uid>.json} before each change ({@link ClaimJournal}). Undo reads it,
 * so that a rollback without the claim's state undoes exactly what may have happened. Immutable;
 * each step returns a new record.
 *
 * @param version the format, {@value #VERSION}
 * @param claimUid the claim's UID
 * @param bootId the node's boot ID when the changes were made (a reboot undid them)
 * @param phase how far the claim got
 * @param sharing the sharing settings applied (or about to be) to whole GPUs
 * @param daemons the MPS daemons started (or about to be)
 */
record ClaimRecord(int version, String claimUid, String bootId, Phase phase,
    List<SharingStep> sharing, List<DaemonStep> daemons) {

  /** The format written. */
  static final int VERSION = 1;

  /** How far the claim got. */
  enum Phase {
    /** Prepare under way: the steps may or may not have happened. */
    PREPARING,
    /** Prepare returned. */
    PREPARED,
    /** Undo under way. */
    UNDOING
  }

  /**
   * A sharing setting on whole GPUs.
   *
   * @param strategy {@code TimeSlicing} or {@code MPS}: what to undo
   * @param gpus the GPUs' UUIDs
   */
  record SharingStep(String strategy, List<String> gpus) {
    SharingStep {
      gpus = List.copyOf(gpus);
    }
  }

  /**
   * An MPS daemon.
   *
   * @param id its ID (and directory name)
   * @param uuids its devices
   * @param commands its control commands
   * @param multiUser whether it serves several users
   * @param launchedAfter clock ticks since boot before it was launched; null if unknown
   * @param pid its PID once known
   * @param startTicks its start time once known
   */
  record DaemonStep(String id, List<String> uuids, List<String> commands, boolean multiUser,
      Long launchedAfter, Long pid, Long startTicks) {
    DaemonStep {
      uuids = List.copyOf(uuids);
      commands = List.copyOf(commands);
    }

    static DaemonStep of(MpsGroup group, OptionalLong launchedAfter) {
      return new DaemonStep(group.id().value(), group.uuids(), group.commands(),
          group.multiUser(), launchedAfter.isPresent() ? launchedAfter.getAsLong() : null,
          null, null);
    }

    MpsGroup group() {
      return new MpsGroup(new MpsDaemonId(id), uuids, commands, multiUser);
    }

    Optional<DaemonProcess> process() {
      return pid == null || startTicks == null ? Optional.empty()
          : Optional.of(new DaemonProcess(pid, startTicks));
    }

    OptionalLong launchedAfterTicks() {
      return launchedAfter == null ? OptionalLong.empty() : OptionalLong.of(launchedAfter);
    }

    DaemonStep launched(DaemonProcess daemon, OptionalLong newLaunchedAfter) {
      return new DaemonStep(id, uuids, commands, multiUser, newLaunchedAfter.isPresent()
          ? newLaunchedAfter.getAsLong() : launchedAfter, daemon.pid(), daemon.startTicks());
    }
  }

  ClaimRecord {
    sharing = sharing == null ? List.of() : List.copyOf(sharing);
    daemons = daemons == null ? List.of() : List.copyOf(daemons);
  }

  /** A new record: nothing changed yet. */
  static ClaimRecord start(String claimUid, String bootId) {
    return new ClaimRecord(VERSION, claimUid, bootId, Phase.PREPARING, List.of(), List.of());
  }

  ClaimRecord with(SharingStep step) {
    List<SharingStep> all = new ArrayList<>(sharing);
    all.add(step);
    return new ClaimRecord(version, claimUid, bootId, phase, all, daemons);
  }

  ClaimRecord with(DaemonStep step) {
    List<DaemonStep> all = new ArrayList<>(daemons);
    all.removeIf(d -> d.id().equals(step.id()));
    all.add(step);
    return new ClaimRecord(version, claimUid, bootId, phase, sharing, all);
  }

  ClaimRecord in(Phase next) {
    return new ClaimRecord(version, claimUid, bootId, next, sharing, daemons);
  }

  /** Whether it records no change at all. */
  boolean isEmpty() {
    return sharing.isEmpty() && daemons.isEmpty();
  }
}
