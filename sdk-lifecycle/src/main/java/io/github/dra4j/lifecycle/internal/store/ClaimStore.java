package io.github.dra4j.lifecycle.internal.store;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.kubeletplugin.spi.ClaimLookup;
import io.github.dra4j.lifecycle.ClaimDriver;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointData;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointFile;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointRead;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointTooLargeException;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimEntry;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claims of one running plugin, prepared on top of a driver that prepares one claim at a
 * time: owns the checkpoint file, and through {@link ClaimWork} the driver, the CDI specs and the
 * claim lookup. Its operations are what happens to the claims: {@link #prepare} and {@link
 * #unprepare} of whole kubelet calls, {@link #repairOnStart} before the plugin serves, and
 * {@link #sweepGone} for claims deleted while the kubelet could not unprepare them.
 *
 * <p>Every operation holds the checkpoint's lock from its first read to its last write, so the
 * two pods of a rolling update never interleave. Prepare writes the checkpoint twice per call,
 * not per claim: once to mark every claim it is about to prepare as started (with its
 * allocation, so a crash can be rolled back), once to mark those that succeeded as completed
 * (with the answer, the CDI spec and the driver's state). Unprepare writes it twice too: once to
 * mark the claims as being unprepared, once to remove them. The order of the other effects is
 * what makes a crash or a failed write at any point recoverable:
 *
 * <ul>
 *   <li>prepare ({@link PrepareCall}): mark started, then hardware (driver), then CDI spec, then
 *       mark completed, then answer. A claim found started is rolled back before anything else
 *       happens to it.
 *   <li>a completed claim prepared again in the same boot: the hardware is left alone; its CDI
 *       spec is rewritten if it is missing or differs; the stored answer is returned.
 *   <li>an entry of an earlier boot: the hardware kept nothing, so it counts as not prepared.
 *   <li>unprepare ({@link UnprepareCall}): mark unprepare started, then hardware undo (driver),
 *       then CDI spec removed, then entry removed. A claim found being unprepared is never
 *       answered as prepared: its undo is finished first.
 * </ul>
 *
 * <p>Thread-safe: all state is on disk, behind the lock; the fields are immutable. Owned by the
 * running lifecycle, which closes it.
 *
 * @param <S> the driver's state record
 */
public final class ClaimStore<S> implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClaimStore.class);

  private final CheckpointFile checkpoint;
  private final ClaimWork<S> work;
  private final BiConsumer<Throwable, String> errors;
  private final Runnable corruptionSeen;

  /**
   * Assembles the store; {@link #repairOnStart} should run before the first call.
   *
   * @param driver the driver
   * @param driverName its name, to pick its allocation results
   * @param bootId the node's current boot
   * @param checkpoint the checkpoint file, owned from now on by the store
   * @param specs where the claims' CDI specs go
   * @param claimSpecs how they are named and built
   * @param states the driver's state codec
   * @param lookup reads claims from the API server
   * @param errors where what goes wrong outside a call's answer is reported
   * @param corruptionSeen counts each checkpoint kept aside as corrupt
   */
  public ClaimStore(ClaimDriver<S> driver, String driverName, String bootId,
      CheckpointFile checkpoint, SpecDirectory specs, ClaimSpecs claimSpecs,
      StateCodec<S> states, ClaimLookup lookup, BiConsumer<Throwable, String> errors,
      Runnable corruptionSeen) {
    this.checkpoint = checkpoint;
    this.work = new ClaimWork<>(driver, driverName, bootId, specs, claimSpecs, states, lookup,
        errors);
    this.errors = errors;
    this.corruptionSeen = corruptionSeen;
  }

  /** Reads the checkpoint and reports a corrupt file (which the reader kept aside). */
  private CheckpointRead read(CheckpointFile.Session session) throws IOException {
    CheckpointRead read = session.read();
    read.corruption().ifPresent(c -> {
      corruptionSeen.run();
      errors.accept(new IOException(c.reason() + "; kept as " + c.keptAs()),
          "claim checkpoint " + c.file() + " was unreadable and was kept aside as " + c.keptAs()
              + "; claims are prepared again as the kubelet asks. " + c.reason());
    });
    return read;
  }

  /**
   * Prepares a kubelet call's claims.
   *
   * @param claims the claims, allocated, or with their metadata only for a claim {@link
   *     #preparedInThisBoot} answered for
   * @param context the call
   * @return one result per claim UID
   * @throws IOException if the checkpoint cannot be read or locked: the whole call fails
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public Map<String, PrepareResult> prepare(List<ResourceClaim> claims, CallContext context)
      throws IOException, InterruptedException {
    try (CheckpointFile.Session session = checkpoint.lock()) {
      return new PrepareCall<>(work, session, context).run(claims, read(session).data());
    }
  }

  /**
   * Unprepares a kubelet call's claims.
   *
   * @param claims the claims
   * @param context the call
   * @return one result per claim UID
   * @throws IOException if the checkpoint cannot be read or locked: the whole call fails
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public Map<String, UnprepareResult> unprepare(List<ClaimReference> claims,
      CallContext context) throws IOException, InterruptedException {
    try (CheckpointFile.Session session = checkpoint.lock()) {
      return new UnprepareCall<>(work, session, context).run(claims, read(session).data());
    }
  }

  /**
   * Repairs the checkpoint and the CDI specs when the plugin starts ({@link StartupRepair}).
   *
   * @param pluginDataDirectory where the checkpoint lives
   * @param context a detached context for the driver's rollbacks
   * @throws IOException if the checkpoint cannot be read, locked or written at all
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public void repairOnStart(Path pluginDataDirectory, CallContext context)
      throws IOException, InterruptedException {
    try (CheckpointFile.Session session = checkpoint.lock()) {
      StartupRepair.run(work, session, read(session), pluginDataDirectory, context, errors);
    }
  }

  /**
   * Whether the checkpoint, as this process last saw it, holds the claim as prepared in this boot
   * (same UID, namespace and name): then a prepare of it is answered from the checkpoint and does
   * not need the claim's allocation. A hint: {@link #prepare} confirms it under the lock, and
   * reads the claim itself if it was wrong.
   *
   * @param claim the claim the kubelet names
   * @return true if its prepare needs no allocation
   */
  public boolean preparedInThisBoot(ClaimReference claim) {
    return checkpoint.lastSeen().entry(claim.uid())
        .filter(entry -> work.preparedInThisBoot(entry)
            && entry.namespace().equals(claim.namespace()) && entry.name().equals(claim.name()))
        .isPresent();
  }

  /**
   * Undoes the claims the kubelet will never unprepare: each claim of the checkpoint is looked up
   * in the API server by namespace and name, and one that no longer exists, or exists with
   * another UID (deleted and created again), is unprepared (or rolled back, if its prepare never
   * completed) and dropped; as for the kubelet's unprepare, the claims are marked as being
   * unprepared before the driver undoes them. This happens when a node was down while its pods
   * were deleted.
   *
   * <p>The API server is asked without holding the checkpoint's lock; a claim found gone is
   * undone under the lock only if its entry is still there, unchanged. An error reading a claim
   * (the API server unreachable, no permission) skips that claim until the next sweep; it is
   * never taken as gone.
   *
   * @param context a detached context for the driver's undo
   * @return the UIDs of the claims undone
   * @throws IOException if the checkpoint cannot be read, locked or written
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public List<String> sweepGone(CallContext context) throws IOException, InterruptedException {
    CheckpointData snapshot;
    try (CheckpointFile.Session session = checkpoint.lock()) {
      snapshot = read(session).data();
    }
    List<String> gone = new ArrayList<>();
    for (Map.Entry<String, ClaimEntry> e : snapshot.claims().entrySet()) {
      if (isGone(e.getKey(), e.getValue())) {
        gone.add(e.getKey());
      }
    }
    List<String> undone = new ArrayList<>();
    if (gone.isEmpty()) {
      return undone;
    }
    try (CheckpointFile.Session session = checkpoint.lock()) {
      CheckpointData data = read(session).data();
      List<String> unchanged = new ArrayList<>();
      CheckpointData marked = data;
      for (String uid : gone) {
        Optional<ClaimEntry> entry = data.entry(uid);
        if (entry.isEmpty() || !entry.get().equals(snapshot.entry(uid).orElseThrow())) {
          continue; // changed meanwhile: the kubelet acted on it
        }
        unchanged.add(uid);
        if (work.preparedInThisBoot(entry.get())) {
          marked = marked.with(uid, entry.get().unprepareStarted());
        }
      }
      if (!marked.equals(data)) {
        try {
          session.write(marked); // as the kubelet's unprepare: recorded before it is done
          data = marked;
        } catch (CheckpointTooLargeException e) {
          LOG.warn("{}; unpreparing without marking the claims first", e.getMessage());
        }
      }
      CheckpointData before = data;
      for (String uid : unchanged) {
        ClaimEntry entry = data.entry(uid).orElseThrow();
        String claim = entry.namespace() + "/" + entry.name() + " (uid " + uid + ")";
        try {
          work.undo(uid, entry, context);
          data = data.without(uid);
          undone.add(uid);
          LOG.info("Claim {} no longer exists in the API server; unprepared it", claim);
        } catch (Exception failure) {
          errors.accept(failure, "unprepare claim " + claim + ", which no longer exists");
        }
      }
      if (!data.equals(before)) {
        session.write(data);
      }
    }
    return undone;
  }

  private boolean isGone(String uid, ClaimEntry entry) {
    try {
      Optional<ResourceClaim> claim = work.lookUp(uid, entry);
      return claim.isEmpty() || claim.get().getMetadata() == null
          || !uid.equals(claim.get().getMetadata().getUid());
    } catch (KubernetesClientException e) {
      LOG.debug("Cannot tell whether claim {}/{} still exists: {}", entry.namespace(),
          entry.name(), e.toString());
      return false;
    }
  }

  /** Closes the checkpoint's lock file; no operation works afterwards. */
  @Override
  public void close() {
    checkpoint.close();
  }
}
