package io.github.dra4j.lifecycle.internal.store;

import io.github.dra4j.core.file.LeftoverFiles;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointData;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointFile;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointRead;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimEntry;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimPhase;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the lifecycle repairs when a plugin starts, before it serves, under the checkpoint's lock
 * (so the other pod of a rolling update is not in the middle of a call):
 *
 * <ol>
 *   <li>entries of an earlier boot are dropped, with their CDI specs: a reboot reset the
 *       hardware, and the kubelet prepares the claims of running pods again;
 *   <li>entries still marked as being prepared (the process died during a prepare) are rolled
 *       back and dropped; one whose rollback fails stays for the next try and is reported;
 *   <li>entries marked as being unprepared (the process died during an unprepare, or its undo or
 *       last write failed) are unprepared again and dropped, their CDI specs not restored; one
 *       whose undo fails stays, marked, and is reported;
 *   <li>the CDI spec of every completed claim is written again if it is missing or differs (a
 *       reboot wipes {@code /var/run/cdi}, which is a tmpfs);
 *   <li>this driver's CDI specs of claims the checkpoint does not hold are removed, and temporary
 *       files that crashed writers left in the CDI and plugin directories. Skipped when the
 *       checkpoint was corrupt: then the specs are all that is known, and they stay until the
 *       kubelet unprepares their claims.
 * </ol>
 */
final class StartupRepair {

  private static final Logger LOG = LoggerFactory.getLogger(StartupRepair.class);

  /** Temporary files younger than this may belong to a writer that is still running. */
  static final Duration LEFTOVER_AGE = Duration.ofMinutes(5);

  private StartupRepair() {}

  /** What a repair did, for logs and tests. */
  record Report(int droppedOfEarlierBoot, int rolledBack, int unprepared,
      int specsRestored, int orphansRemoved, boolean checkpointWasCorrupt) {}

  /**
   * Runs the repair in a lock session of the checkpoint ({@link ClaimStore#repairOnStart}).
   *
   * @param work the per-claim work on the node
   * @param session the checkpoint's lock session
   * @param read what the session read
   * @param pluginDataDirectory where the checkpoint lives
   * @param context a detached context for the driver's rollbacks
   * @param errors where failures are reported (they do not stop the start)
   * @param <S> the driver's state record
   * @return what was done
   * @throws IOException if the checkpoint cannot be written
   */
  static <S> Report run(ClaimWork<S> work, CheckpointFile.Session session, CheckpointRead read,
      Path pluginDataDirectory, CallContext context, BiConsumer<Throwable, String> errors)
      throws IOException {
    int dropped = 0;
    int rolledBack = 0;
    int unprepared = 0;
    int restored = 0;
    int orphans = 0;
    boolean corrupt = read.corruption().isPresent();
    CheckpointData data = read.data();
    CheckpointData before = data;
    for (Map.Entry<String, ClaimEntry> e : before.claims().entrySet()) {
      String uid = e.getKey();
      ClaimEntry entry = e.getValue();
      String claim = entry.namespace() + "/" + entry.name() + " (uid " + uid + ")";
      if (!work.thisBoot(entry)) {
        work.removeSpec(uid, entry.namespace() + "/" + entry.name());
        data = data.without(uid);
        dropped++;
      } else if (entry.phase() == ClaimPhase.UNPREPARE_STARTED) {
        try {
          work.undo(uid, entry, context);
          data = data.without(uid);
          unprepared++;
        } catch (Exception failure) {
          errors.accept(failure, "finish the unprepare of claim " + claim);
        }
      } else if (entry.phase() == ClaimPhase.PREPARE_STARTED) {
        try {
          work.rollBack(uid, entry, Optional.empty(), context);
          data = data.without(uid);
          rolledBack++;
        } catch (Exception failure) {
          errors.accept(failure, "roll back the unfinished prepare of claim " + claim);
        }
      } else {
        try {
          if (work.restoreSpec(uid, entry)) {
            restored++;
          }
        } catch (IOException | RuntimeException failure) {
          errors.accept(failure, "restore the CDI spec of prepared claim " + claim);
        }
      }
    }
    if (!data.equals(before)) {
      session.write(data);
    }
    if (!corrupt) {
      orphans = work.removeOrphanSpecs(keep(data), LEFTOVER_AGE);
      LeftoverFiles.removeTemporaryFiles(pluginDataDirectory, LEFTOVER_AGE);
    }
    Report report = new Report(dropped, rolledBack, unprepared, restored, orphans, corrupt);
    LOG.info("Claim checkpoint repaired at start: {} of an earlier boot dropped, {} unfinished"
        + " prepares rolled back, {} unfinished unprepares finished, {} CDI specs restored, {}"
        + " orphaned CDI specs removed{}", dropped, rolledBack, unprepared, restored, orphans,
        corrupt ? " (checkpoint was corrupt)" : "");
    return report;
  }

  /** The spec IDs to keep: each prepared claim's, and the node-wide common spec. */
  private static Set<String> keep(CheckpointData data) {
    Set<String> keep = new HashSet<>(data.claims().keySet());
    keep.add(ClaimSpecs.COMMON_SPEC_ID);
    return keep;
  }
}
