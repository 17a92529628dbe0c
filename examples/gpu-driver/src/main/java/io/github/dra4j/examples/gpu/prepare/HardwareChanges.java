package io.github.dra4j.examples.gpu.prepare;

import io.github.dra4j.examples.gpu.mps.DaemonProcess;
import io.github.dra4j.examples.gpu.mps.MpsDaemons;
import io.github.dra4j.examples.gpu.mps.MpsGroup;
import io.github.dra4j.examples.gpu.prepare.ClaimRecord.DaemonStep;
import io.github.dra4j.examples.gpu.prepare.ClaimRecord.Phase;
import io.github.dra4j.examples.gpu.prepare.ClaimRecord.SharingStep;
import io.github.dra4j.examples.gpu.sharing.SharingCommands;
import io.github.dra4j.examples.gpu.sharing.SharingSetting;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every change the driver makes on the node, each recorded in the claim's {@link ClaimRecord}
 * before it is made, and their undo from that record alone.
 *
 * <p>Undo never keeps a claim's devices locked: a daemon that cannot be stopped or a directory
 * that cannot be removed is reported and swept at the next start; a GPU whose sharing cannot be
 * reset (no {@code nvidia-smi}, a failing command) is reported (ERROR, naming the GPU and the
 * command) and remembered in {@link PendingResets}; the undo completes. The reset is tried again
 * at every start and before the next prepare that changes that GPU, which fails with the reason
 * while it still cannot be done. A claim that changes nothing has no record and undoes nothing.
 *
 * <p>Owned by the claim driver, which calls it one claim at a time; not thread-safe.
 */
final class HardwareChanges {

  private static final Logger LOG = LoggerFactory.getLogger(HardwareChanges.class);

  private final SharingCommands sharing;
  private final Path pluginDataDirectory;
  private final String bootId;
  private final ClaimJournal journal;
  private final PendingResets pending;
  private final BiConsumer<Throwable, String> errors;

  HardwareChanges(SharingCommands sharing, Path pluginDataDirectory, String bootId,
      BiConsumer<Throwable, String> errors) {
    this.sharing = sharing;
    this.pluginDataDirectory = pluginDataDirectory;
    this.bootId = bootId;
    this.journal = new ClaimJournal(pluginDataDirectory);
    this.pending = new PendingResets(pluginDataDirectory);
    this.errors = errors;
  }

  /** One claim's changes during its prepare. */
  final class Claim {
    private ClaimRecord record;

    private Claim(ClaimRecord record) {
      this.record = record;
    }

    /** Applies a setting to whole GPUs, recorded first. */
    void apply(SharingSetting setting, List<String> gpus) throws IOException {
      resetPending(gpus);
      save(record.with(new SharingStep(strategy(setting), gpus)));
      sharing.apply(setting, gpus);
    }

    /** Starts an MPS daemon, recorded first and again once its process is known. */
    void startDaemon(MpsGroup group) throws IOException {
      MpsDaemons mps = sharing.mps();
      DaemonStep step = DaemonStep.of(group, mps.nowTicks());
      save(record.with(step));
      mps.start(group, pluginDataDirectory,
          daemon -> save(record.with(step.launched(daemon, OptionalLong.empty()))));
    }

    /** Marks the prepare as returned. */
    void prepared() throws IOException {
      if (!record.isEmpty()) {
        save(record.in(Phase.PREPARED));
      }
    }

    private void save(ClaimRecord next) throws IOException {
      journal.write(next);
      record = next;
    }
  }

  /**
   * Starts recording a claim's prepare, after undoing what an earlier prepare of it left.
   *
   * @param claimUid the claim's UID
   * @return the claim's record keeper
   */
  Claim begin(String claimUid) throws IOException {
    undo(claimUid, List.of());
    return new Claim(ClaimRecord.start(claimUid, bootId));
  }

  /**
   * Undoes what a claim changed, from its record; without a record, resets the GPUs an older
   * version of the driver listed in the claim's state.
   *
   * @param claimUid the claim's UID
   * @param legacyGpus GPUs from the claim's state whose time slicing to reset if no record exists
   */
  void undo(String claimUid, List<String> legacyGpus) throws IOException {
    Optional<ClaimRecord> found;
    try {
      found = journal.read(claimUid);
    } catch (ClaimJournal.CorruptRecordException e) {
      errors.accept(e, "undo the changes of claim " + claimUid);
      found = Optional.empty();
    }
    if (found.isEmpty()) {
      for (String gpu : legacyGpus) {
        reset(new SharingSetting.TimeSlicing(SharingSetting.TimeSliceInterval.Default), gpu,
            claimUid);
      }
      return;
    }
    ClaimRecord record = found.get();
    boolean sameBoot = record.bootId().equals(bootId);
    if (record.phase() != Phase.UNDOING) {
      journal.write(record.in(Phase.UNDOING));
    }
    for (DaemonStep daemon : record.daemons()) {
      Path directory = daemon.group().directory(pluginDataDirectory);
      try {
        if (sameBoot) {
          sharing.mps().stop(directory, daemon.process(), daemon.launchedAfterTicks());
        } else { // a reboot ended the daemon; its PID means nothing now
          sharing.mps().stop(directory, Optional.empty(), OptionalLong.empty());
        }
      } catch (IOException | RuntimeException e) {
        errors.accept(e, "stop MPS daemon " + daemon.id() + " of claim " + claimUid
            + "; its directory " + directory + " is swept at the next start");
      }
    }
    if (sameBoot) { // a reboot reset the GPUs
      for (SharingStep step : record.sharing()) {
        SharingSetting setting = setting(step.strategy());
        for (String gpu : step.gpus()) {
          reset(setting, gpu, claimUid);
        }
      }
    }
    journal.remove(claimUid);
  }

  /**
   * At start: drops records of an earlier boot, starts again the daemons of prepared claims that
   * a plugin restart ended, and sweeps daemon directories that belong to no record; then tries
   * the pending resets. Records of half-done claims stay for the lifecycle's repair.
   */
  void recover() {
    Set<String> keep = new HashSet<>();
    try {
      for (String uid : journal.claims()) {
        try {
          Optional<ClaimRecord> found = journal.read(uid);
          if (found.isEmpty()) {
            continue;
          }
          ClaimRecord record = found.get();
          if (!record.bootId().equals(bootId)) {
            undo(uid, List.of());
          } else {
            record.daemons().forEach(d -> keep.add(d.id()));
            if (record.phase() == Phase.PREPARED) {
              restartDaemons(record);
            }
          }
        } catch (IOException | RuntimeException e) {
          errors.accept(e, "recover the MPS daemons and records of claim " + uid);
        }
      }
      List<Path> swept = sharing.mps().sweep(pluginDataDirectory, keep);
      if (!swept.isEmpty()) {
        LOG.info("Removed MPS daemon directories of claims no longer prepared: {}", swept);
      }
    } catch (IOException | RuntimeException e) {
      errors.accept(e, "sweep the MPS daemon directories under " + pluginDataDirectory);
    }
    try {
      for (Map.Entry<String, PendingResets.Pending> entry : pending.read().entrySet()) {
        try {
          resetPending(List.of(entry.getKey()));
        } catch (IOException e) {
          LOG.error("GPU {} still needs its sharing reset: {}", entry.getKey(), e.getMessage());
        }
      }
    } catch (IOException e) {
      errors.accept(e, "read the pending GPU resets");
    }
  }

  /** Starts again the daemons of a prepared claim whose process is gone. */
  private void restartDaemons(ClaimRecord record) throws IOException {
    ClaimRecord current = record;
    for (DaemonStep daemon : record.daemons()) {
      Optional<DaemonProcess> process = daemon.process();
      if (process.isPresent() && sharing.mps().isRunning(process.get())) {
        continue;
      }
      Path directory = daemon.group().directory(pluginDataDirectory);
      LOG.warn("MPS daemon {} of prepared claim {} is gone (a plugin restart ends the daemons it"
          + " started); starting it again", daemon.id(), record.claimUid());
      sharing.mps().stop(directory, process, daemon.launchedAfterTicks());
      OptionalLong before = sharing.mps().nowTicks();
      ClaimRecord[] saved = {current.with(new DaemonStep(daemon.id(), daemon.uuids(),
          daemon.commands(), daemon.multiUser(), before.isPresent() ? before.getAsLong()
              : null,
          null, null))};
      journal.write(saved[0]);
      sharing.mps().start(daemon.group(), pluginDataDirectory, started -> {
        saved[0] = saved[0].with(new DaemonStep(daemon.id(), daemon.uuids(), daemon.commands(),
            daemon.multiUser(), before.isPresent() ? before.getAsLong() : null, started.pid(),
            started.startTicks()));
        journal.write(saved[0]);
      });
      current = saved[0];
    }
  }

  /** Runs the pending resets of these GPUs; fails naming the GPU while one cannot be done. */
  private void resetPending(List<String> gpus) throws IOException {
    Map<String, PendingResets.Pending> all = pending.read();
    boolean changed = false;
    for (String gpu : gpus) {
      PendingResets.Pending reset = all.get(gpu);
      if (reset != null) {
        try {
          sharing.reset(setting(reset.strategy()), List.of(gpu));
        } catch (IOException e) {
          throw new IOException("GPU " + gpu + " still needs its sharing reset after an"
              + " earlier claim (" + reset.reason() + "); it failed again: " + e.getMessage(),
              e);
        }
        LOG.info("GPU {}: pending sharing reset done", gpu);
        all.remove(gpu);
        changed = true;
      }
    }
    if (changed) {
      pending.write(all);
    }
  }

  private void reset(SharingSetting applied, String gpu, String claimUid) throws IOException {
    try {
      sharing.reset(applied, List.of(gpu));
    } catch (IOException | RuntimeException e) {
      LOG.error("Cannot reset the sharing of GPU {} after claim {}: {}; the claim's devices are"
          + " released, and the reset is tried again before the GPU's next change", gpu,
          claimUid, e.getMessage());
      errors.accept(e, "reset the sharing of GPU " + gpu + " after claim " + claimUid);
      Map<String, PendingResets.Pending> all;
      try {
        all = pending.read();
      } catch (IOException unreadable) {
        errors.accept(unreadable, "read the pending GPU resets");
        all = new java.util.TreeMap<>();
      }
      PendingResets.Pending earlier = all.get(gpu);
      String strategy = earlier != null && earlier.strategy().equals("TimeSlicing")
          ? "TimeSlicing" : strategy(applied);
      all.put(gpu, new PendingResets.Pending(strategy, e.getMessage()));
      pending.write(all);
    }
  }

  private static String strategy(SharingSetting setting) {
    return setting instanceof SharingSetting.Mps ? "MPS" : "TimeSlicing";
  }

  private static SharingSetting setting(String strategy) {
    return strategy.equals("MPS") ? SharingSetting.Mps.unlimited()
        : new SharingSetting.TimeSlicing(SharingSetting.TimeSliceInterval.Default);
  }
}
