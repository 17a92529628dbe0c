package io.github.dra4j.kubeletplugin.internal.lifecycle;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.cdi.store.SpecFileName;
import io.github.dra4j.cdi.store.WriteMode;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointData;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointFile;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointRead;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointTooLargeException;
import io.github.dra4j.kubeletplugin.internal.checkpoint.ClaimEntry;
import io.github.dra4j.kubeletplugin.internal.checkpoint.ClaimPhase;
import io.github.dra4j.kubeletplugin.internal.node.NodeService;
import io.github.dra4j.kubeletplugin.lifecycle.ClaimDriver;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The claim lifecycle of one running plugin: the checkpointed prepare and unprepare of whole
 * kubelet calls, on top of a driver that prepares one claim at a time.
 *
 * <p>Every call holds the checkpoint's lock from its first read to its last write, so the two
 * pods of a rolling update never interleave. Prepare writes the checkpoint twice per call, not
 * per claim: once to mark every claim it is about to prepare as started (with its allocation, so
 * a crash can be rolled back), once to mark those that succeeded as completed (with the answer,
 * the CDI spec and the driver's state). Unprepare writes it twice too: once to mark the claims
 * as being unprepared, once to remove them. The order of the other effects is what makes a
 * crash or a failed write at any point recoverable:
 *
 * <ul>
 *   <li>prepare ({@link PrepareCall}): mark started, then hardware (driver), then CDI spec, then mark completed, then
 *       answer. A claim found started is rolled back before anything else happens to it.
 *   <li>a completed claim prepared again in the same boot: the hardware is left alone; its CDI
 *       spec is rewritten if it is missing or differs; the stored answer is returned.
 *   <li>an entry of an earlier boot: the hardware kept nothing, so it counts as not prepared.
 *   <li>unprepare: mark unprepare started, then hardware undo (driver), then CDI spec removed,
 *       then entry removed. A claim found being unprepared is never answered as prepared: its
 *       undo is finished first.
 * </ul>
 *
 * <p>Thread-safe: all state is on disk, behind the lock; the fields are immutable.
 *
 * @param <S> the driver's state record
 */
public final class CheckpointedClaims<S> {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointedClaims.class);

  private final ClaimDriver<S> driver;
  private final String driverName;
  private final String bootId;
  private final CheckpointFile checkpoint;
  private final SpecDirectory specs;
  private final ClaimSpecs claimSpecs;
  private final StateCodec<S> states;
  private final BiConsumer<Throwable, String> errors;
  private final Runnable corruptionSeen;

  /**
   * Assembles the lifecycle; {@link StartupRepair} should run before the first call.
   *
   * @param driver the driver
   * @param driverName its name, to pick its allocation results
   * @param bootId the node's current boot
   * @param checkpoint the checkpoint file (owned by the caller)
   * @param specs where the claims' CDI specs go
   * @param claimSpecs how they are named and built
   * @param states the driver's state codec
   * @param errors where a checkpoint kept aside as corrupt is reported
   * @param corruptionSeen counts each checkpoint kept aside as corrupt
   */
  public CheckpointedClaims(ClaimDriver<S> driver, String driverName, String bootId,
      CheckpointFile checkpoint, SpecDirectory specs, ClaimSpecs claimSpecs,
      StateCodec<S> states, BiConsumer<Throwable, String> errors, Runnable corruptionSeen) {
    this.driver = driver;
    this.driverName = driverName;
    this.bootId = bootId;
    this.checkpoint = checkpoint;
    this.specs = specs;
    this.claimSpecs = claimSpecs;
    this.states = states;
    this.errors = errors;
    this.corruptionSeen = corruptionSeen;
  }

  /**
   * Reads the checkpoint and reports a corrupt file (which the reader kept aside) to the driver.
   *
   * @param session the locked checkpoint
   * @return what was read; empty data after corruption
   * @throws IOException if the file cannot be read at all
   */
  CheckpointRead read(CheckpointFile.Session session) throws IOException {
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
   * @param claims the claims, allocated
   * @param context the call
   * @return one result per claim UID
   * @throws IOException if the checkpoint cannot be read or locked: the whole call fails
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public Map<String, PrepareResult> prepare(List<ResourceClaim> claims, CallContext context)
      throws IOException, InterruptedException {
    return new PrepareCall<>(this, context).run(claims);
  }

  /**
   * Whether the checkpoint, as this process last saw it, holds the claim as prepared in this boot
   * (same UID, namespace and name): then a prepare of it is answered from the checkpoint and does
   * not need the claim's allocation. A hint: {@link #prepare} confirms it under the lock.
   *
   * @param claim the claim the kubelet names
   * @return true if its prepare needs no allocation
   */
  public boolean preparedInThisBoot(ClaimReference claim) {
    return checkpoint.lastSeen().entry(claim.uid())
        .filter(entry -> entry.phase() == ClaimPhase.PREPARE_COMPLETED
            && bootId.equals(entry.bootId()) && entry.namespace().equals(claim.namespace())
            && entry.name().equals(claim.name()))
        .isPresent();
  }

  /**
   * Writes a completed claim's CDI spec again from its checkpoint entry if the file is missing or
   * differs; an entry without a spec needs none.
   *
   * @return true if the file was written
   */
  boolean restoreSpec(String uid, ClaimEntry entry) throws IOException {
    return entry.cdiSpec() != null && specs.writeTransient(
        ClaimSpecs.fromJson(entry.cdiSpec(), "checkpoint entry of claim " + uid), uid,
        WriteMode.REPLACE_IF_CHANGED).written();
  }

  /**
   * Removes a claim's CDI spec, if there is one. Only what the lifecycle writes is removed: a
   * regular file, or a symbolic link in its place. Anything else at the path (a directory, which
   * a bind mount of the missing file leaves; a FIFO; a socket) is not the driver's: it is left
   * alone and reported, so that it cannot make the claim's unprepare fail on every retry.
   *
   * @param uid the claim UID
   * @param claim the claim's namespace and name, for the report
   * @throws IOException if the spec file exists but cannot be removed
   */
  void removeSpec(String uid, String claim) throws IOException {
    Path path = specs.path().resolve(
        SpecFileName.forTransientSpec(claimSpecs.kind(), uid).value());
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(path, BasicFileAttributes.class,
          LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return;
    }
    if (attributes.isDirectory() || attributes.isOther()) {
      String what = attributes.isDirectory() ? "a directory" : "a special file";
      errors.accept(new IOException(path + ": " + what + ", not a spec file"),
          "CDI spec path " + path + " of claim " + claim + " (uid " + uid + ") holds " + what
              + ", which the driver did not write; left it in place and went on");
      return;
    }
    specs.removeTransient(claimSpecs.kind(), uid);
  }

  /** The driver's rollback, then the claim's CDI spec. */
  void rollBack(String uid, ClaimEntry entry, Optional<S> state, CallContext context)
      throws Exception {
    driver.rollback(allocationOf(uid, entry), state, context);
    removeSpec(uid, entry.namespace() + "/" + entry.name());
  }

  /**
   * Unprepares a kubelet call's claims. Every claim prepared in this boot is first marked as
   * being unprepared, all in one write, before the driver undoes anything: if the undo fails,
   * the process dies, or the last write fails, the claim is never answered as prepared from its
   * record again; the next prepare, unprepare or start finishes the undo. A claim that cannot be
   * marked (the disk is full) is left alone, prepared, and fails, so the kubelet retries.
   *
   * @param claims the claims
   * @param context the call
   * @return one result per claim UID
   * @throws IOException if the checkpoint cannot be read or locked: the whole call fails
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  public Map<String, UnprepareResult> unprepare(List<ClaimReference> claims,
      CallContext context) throws IOException, InterruptedException {
    Map<String, UnprepareResult> results = new LinkedHashMap<>();
    try (CheckpointFile.Session session = checkpoint.lock()) {
      CheckpointData data = read(session).data();
      CheckpointData before = data;
      data = markUnprepareStarted(session, claims, data, results);
      CheckpointData marked = data;
      for (ClaimReference ref : claims) {
        if (results.containsKey(ref.uid())) {
          continue; // could not be marked: nothing was undone
        }
        try (MDC.MDCCloseable ignored = MDC.putCloseable(NodeService.MDC_CLAIM, ref.toString())) {
          Optional<ClaimEntry> entry = data.entry(ref.uid());
          try {
            if (entry.isPresent()) {
              undo(ref.uid(), entry.get(), context);
              data = data.without(ref.uid());
            } else {
              removeSpec(ref.uid(), ref.namespacedName()); // a leftover, if any
            }
            results.put(ref.uid(), UnprepareResult.ok());
          } catch (Exception e) {
            results.put(ref.uid(), UnprepareResult.failed(e.getMessage() == null ? e.toString()
                : e.getMessage(), e));
          }
        }
      }
      if (!data.equals(marked)) {
        try {
          session.write(data);
        } catch (IOException e) {
          // The hardware and CDI side is undone; the entries stay, marked, and the undo is
          // finished again before anything else happens to them (it is idempotent), so the
          // kubelet must retry.
          claims.forEach(ref -> {
            if (results.get(ref.uid()) != null && !results.get(ref.uid()).isFailed()
                && before.entry(ref.uid()).isPresent()) {
              results.put(ref.uid(), UnprepareResult.failed(
                  "remove claim from checkpoint: " + e.getMessage(), e));
            }
          });
        }
      }
    }
    return results;
  }

  /**
   * Marks the call's claims prepared in this boot as being unprepared, in one write. If the write
   * fails they get a failed result and are left out of the call; a checkpoint that would grow
   * past its size limit is not marked, and the claims are unprepared as before (the kubelet's
   * retries could never succeed otherwise).
   */
  private CheckpointData markUnprepareStarted(CheckpointFile.Session session,
      List<ClaimReference> claims, CheckpointData data, Map<String, UnprepareResult> results) {
    CheckpointData marked = data;
    for (ClaimReference ref : claims) {
      Optional<ClaimEntry> entry = data.entry(ref.uid());
      if (entry.isPresent() && entry.get().phase() == ClaimPhase.PREPARE_COMPLETED
          && bootId.equals(entry.get().bootId())) {
        marked = marked.with(ref.uid(), entry.get().unprepareStarted());
      }
    }
    if (marked.equals(data)) {
      return data;
    }
    try {
      session.write(marked);
      return marked;
    } catch (CheckpointTooLargeException e) {
      LOG.warn("{}; unpreparing without marking the claims first", e.getMessage());
      return data;
    } catch (IOException e) {
      for (ClaimReference ref : claims) {
        if (!marked.entry(ref.uid()).equals(data.entry(ref.uid()))) {
          results.put(ref.uid(), UnprepareResult.failed(
              "record claim as being unprepared: " + e.getMessage(), e));
        }
      }
      return data;
    }
  }

  /**
   * Whatever the entry says was done is undone: hardware, then CDI spec. A claim whose unprepare
   * started is unprepared again with its state: the driver's undo is idempotent.
   */
  void undo(String uid, ClaimEntry entry, CallContext context) throws Exception {
    String claim = entry.namespace() + "/" + entry.name();
    if (!bootId.equals(entry.bootId())) {
      removeSpec(uid, claim); // the hardware kept nothing
      return;
    }
    if (entry.phase() == ClaimPhase.PREPARE_STARTED) {
      rollBack(uid, entry, Optional.empty(), context);
      return;
    }
    S state = states.decode(entry.driverState(), "claim " + uid);
    driver.unprepare(allocationOf(uid, entry), state, context);
    removeSpec(uid, claim);
  }

  DriverAllocation allocationOf(String uid, ClaimEntry entry) {
    return new DriverAllocation(new ClaimReference(entry.namespace(), entry.name(), uid),
        driverName, entry.allocation());
  }

  ClaimDriver<S> driver() {
    return driver;
  }

  String driverName() {
    return driverName;
  }

  /**
   * The checkpoint file.
   *
   * @return the store
   */
  public CheckpointFile checkpoint() {
    return checkpoint;
  }

  /**
   * The node's current boot.
   *
   * @return the boot ID
   */
  public String bootId() {
    return bootId;
  }

  /**
   * The claims' CDI naming.
   *
   * @return the spec builder
   */
  public ClaimSpecs claimSpecs() {
    return claimSpecs;
  }

  /**
   * The CDI directory.
   *
   * @return the spec directory
   */
  public SpecDirectory specs() {
    return specs;
  }

  /**
   * The driver's state codec.
   *
   * @return the codec
   */
  public StateCodec<S> states() {
    return states;
  }
}
