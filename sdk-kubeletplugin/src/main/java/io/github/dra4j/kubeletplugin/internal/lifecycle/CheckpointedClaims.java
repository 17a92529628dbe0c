package io.github.dra4j.kubeletplugin.internal.lifecycle;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.cdi.store.WriteMode;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointData;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointFile;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointRead;
import io.github.dra4j.kubeletplugin.internal.checkpoint.ClaimEntry;
import io.github.dra4j.kubeletplugin.internal.checkpoint.ClaimPhase;
import io.github.dra4j.kubeletplugin.internal.node.NodeService;
import io.github.dra4j.kubeletplugin.lifecycle.ClaimDriver;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.io.IOException;
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
 * the CDI spec and the driver's state). Unprepare writes it once. The order of the other effects
 * is what makes a crash at any point recoverable:
 *
 * <ul>
 *   <li>prepare: mark started, then hardware (driver), then CDI spec, then mark completed, then
 *       answer. A claim found started is rolled back before anything else happens to it.
 *   <li>a completed claim prepared again in the same boot: the hardware is left alone; its CDI
 *       spec is rewritten if it is missing or differs; the stored answer is returned.
 *   <li>an entry of an earlier boot: the hardware kept nothing, so it counts as not prepared.
 *   <li>unprepare: hardware undo (driver), then CDI spec removed, then entry removed.
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
    read.corruption().ifPresent(c -> corruptionSeen.run());
    read.corruption().ifPresent(c -> errors.accept(
        new IOException(c.reason() + "; kept as " + c.keptAs()),
        "claim checkpoint " + c.file() + " was unreadable and was kept aside as " + c.keptAs()
            + "; claims are prepared again as the kubelet asks"));
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
    Map<String, PrepareResult> results = new LinkedHashMap<>();
    try (CheckpointFile.Session session = checkpoint.lock()) {
      CheckpointData data = read(session).data();
      CheckpointData before = data;
      Map<String, Fresh> fresh = new LinkedHashMap<>();
      for (ResourceClaim claim : claims) {
        String uid = claim.getMetadata().getUid();
        try (MDC.MDCCloseable ignored = MDC.putCloseable(NodeService.MDC_CLAIM, refOf(claim))) {
          data = admit(claim, data, context, results, fresh);
        }
      }
      if (!fresh.isEmpty() || !data.equals(before)) {
        try {
          session.write(data); // phase 1: the claims about to be prepared are marked started
        } catch (IOException e) {
          fresh.keySet().forEach(uid -> results.put(uid, PrepareResult.failed(
              "record claim as being prepared: " + e.getMessage(), e)));
          return results;
        }
      }
      if (fresh.isEmpty()) {
        return results;
      }
      for (Map.Entry<String, Fresh> work : fresh.entrySet()) {
        String uid = work.getKey();
        try (MDC.MDCCloseable ignored =
            MDC.putCloseable(NodeService.MDC_CLAIM, work.getValue().allocation().claim()
                .toString())) {
          data = prepareOne(uid, work.getValue(), data, context, results);
        }
      }
      try {
        session.write(data); // phase 2: the prepared claims are marked completed
      } catch (IOException e) {
        data = undoUnrecorded(fresh, data, results, e, context);
        try {
          session.write(data);
        } catch (IOException again) {
          LOG.warn("Checkpoint {} still not writable; the claims stay marked as being prepared"
              + " and are rolled back again later: {}", checkpoint.file(), again.toString());
        }
      }
    }
    return results;
  }

  /** A claim this call prepares from scratch. */
  private record Fresh(DriverAllocation allocation, ResourceClaim claim) {}

  private static String refOf(ResourceClaim claim) {
    return claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName() + ":"
        + claim.getMetadata().getUid();
  }

  /**
   * Decides what a claim needs: the stored answer (prepared in this boot), or a fresh prepare
   * after rolling back half-done work and checking for conflicts. Returns the checkpoint as it
   * must be written before the hardware is touched.
   */
  private CheckpointData admit(ResourceClaim claim, CheckpointData data, CallContext context,
      Map<String, PrepareResult> results, Map<String, Fresh> fresh) {
    String uid = claim.getMetadata().getUid();
    DriverAllocation allocation;
    try {
      allocation = DriverAllocation.of(claim, driverName);
    } catch (IllegalArgumentException e) {
      results.put(uid, PrepareResult.failed(e.getMessage()));
      return data;
    }
    Optional<ClaimEntry> entry = data.entry(uid);
    if (entry.isPresent() && !bootId.equals(entry.get().bootId())) {
      LOG.info("Claim {} was prepared before the node rebooted; preparing it again",
          allocation.claim());
      data = data.without(uid);
      entry = Optional.empty();
    }
    if (entry.isPresent() && entry.get().phase() == ClaimPhase.PREPARE_COMPLETED) {
      results.put(uid, alreadyPrepared(uid, entry.get()));
      return data;
    }
    if (entry.isPresent()) {
      try {
        rollBack(uid, entry.get(), Optional.empty(), context);
      } catch (Exception e) {
        results.put(uid, PrepareResult.failed(
            "roll back an earlier, unfinished prepare: " + e.getMessage(), e));
        return data;
      }
      data = data.without(uid);
    }
    Optional<String> conflict = Conflicts.find(allocation, data, bootId);
    if (conflict.isPresent()) {
      results.put(uid, PrepareResult.failed(conflict.get()));
      return data;
    }
    fresh.put(uid, new Fresh(allocation, claim));
    return data.with(uid, ClaimEntry.started(allocation.claim().namespace(),
        allocation.claim().name(), bootId, allocation.devices()));
  }

  /** A claim completed in this boot: no hardware work; its CDI spec is made whole again. */
  private PrepareResult alreadyPrepared(String uid, ClaimEntry entry) {
    try {
      if (entry.cdiSpec() != null) {
        var written = specs.writeTransient(
            ClaimSpecs.fromJson(entry.cdiSpec(), "checkpoint entry of claim " + uid), uid,
            WriteMode.REPLACE_IF_CHANGED);
        if (written.written()) {
          LOG.info("Rewrote CDI spec {} of prepared claim {}/{}, which was missing or differed",
              written.path(), entry.namespace(), entry.name());
        }
      }
    } catch (IOException | RuntimeException e) {
      return PrepareResult.failed("restore CDI spec of prepared claim: " + e.getMessage(), e);
    }
    return PrepareResult.prepared(ClaimSpecs.answer(entry.devices()));
  }

  /** Hardware, then CDI spec; on failure the hardware is rolled back and the entry dropped. */
  private CheckpointData prepareOne(String uid, Fresh work, CheckpointData data,
      CallContext context, Map<String, PrepareResult> results) {
    DriverAllocation allocation = work.allocation();
    ClaimEntry started = data.entry(uid).orElseThrow();
    io.github.dra4j.kubeletplugin.lifecycle.PreparedClaim<S> prepared;
    try {
      prepared = driver.prepare(allocation, work.claim(), context);
      if (prepared == null) {
        throw new IllegalStateException("driver returned no result");
      }
    } catch (Exception e) {
      results.put(uid, PrepareResult.failed(e.getMessage() == null ? e.toString()
          : e.getMessage(), e));
      return rolledBack(uid, started, Optional.empty(), data, context);
    }
    try {
      ClaimSpecs.ClaimOutput output = claimSpecs.build(allocation, prepared);
      var json = output.spec().map(ClaimSpecs::toJson).orElse(null);
      if (output.spec().isPresent()) {
        specs.writeTransient(output.spec().get(), uid, WriteMode.REPLACE_IF_CHANGED);
      } else {
        specs.removeTransient(claimSpecs.kind(), uid);
      }
      results.put(uid, PrepareResult.prepared(output.devices()));
      return data.with(uid, started.completed(ClaimSpecs.stored(output.devices()), json,
          states.encode(prepared.state())));
    } catch (IOException | RuntimeException e) {
      results.put(uid, PrepareResult.failed("write CDI spec: " + e.getMessage(), e));
      return rolledBack(uid, started, Optional.ofNullable(prepared.state()), data, context);
    }
  }

  /** Rolls a claim back; the entry goes if that worked and stays (started) if not. */
  private CheckpointData rolledBack(String uid, ClaimEntry entry, Optional<S> state,
      CheckpointData data, CallContext context) {
    try {
      rollBack(uid, entry, state, context);
      return data.without(uid);
    } catch (Exception e) {
      LOG.warn("Rolling back the failed prepare of claim {}/{} failed; it is tried again later",
          entry.namespace(), entry.name(), e);
      return data;
    }
  }

  private CheckpointData undoUnrecorded(Map<String, Fresh> fresh, CheckpointData data,
      Map<String, PrepareResult> results, IOException cause, CallContext context) {
    for (String uid : fresh.keySet()) {
      Optional<ClaimEntry> entry = data.entry(uid);
      if (entry.isEmpty() || entry.get().phase() != ClaimPhase.PREPARE_COMPLETED) {
        continue; // failed already, and rolled back or left for later
      }
      results.put(uid, PrepareResult.failed("record prepared claim: " + cause.getMessage(),
          cause));
      S state = states.decode(entry.get().driverState(), "claim " + uid);
      data = rolledBack(uid, entry.get(), Optional.ofNullable(state), data, context);
    }
    return data;
  }

  /** The driver's rollback, then the claim's CDI spec. */
  void rollBack(String uid, ClaimEntry entry, Optional<S> state, CallContext context)
      throws Exception {
    driver.rollback(allocationOf(uid, entry), state, context);
    specs.removeTransient(claimSpecs.kind(), uid);
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
    Map<String, UnprepareResult> results = new LinkedHashMap<>();
    try (CheckpointFile.Session session = checkpoint.lock()) {
      CheckpointData data = read(session).data();
      CheckpointData before = data;
      for (ClaimReference ref : claims) {
        try (MDC.MDCCloseable ignored = MDC.putCloseable(NodeService.MDC_CLAIM, ref.toString())) {
          Optional<ClaimEntry> entry = data.entry(ref.uid());
          try {
            if (entry.isPresent()) {
              undo(ref.uid(), entry.get(), context);
              data = data.without(ref.uid());
            } else {
              specs.removeTransient(claimSpecs.kind(), ref.uid()); // a leftover, if any
            }
            results.put(ref.uid(), UnprepareResult.ok());
          } catch (Exception e) {
            results.put(ref.uid(), UnprepareResult.failed(e.getMessage() == null ? e.toString()
                : e.getMessage(), e));
          }
        }
      }
      if (!data.equals(before)) {
        try {
          session.write(data);
        } catch (IOException e) {
          // The hardware and CDI side is undone; the entries stay and are undone again next
          // time (the driver's undo is idempotent), so the kubelet must retry.
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

  /** Whatever the entry says was done is undone: hardware, then CDI spec. */
  void undo(String uid, ClaimEntry entry, CallContext context) throws Exception {
    if (!bootId.equals(entry.bootId())) {
      specs.removeTransient(claimSpecs.kind(), uid); // the hardware kept nothing
      return;
    }
    if (entry.phase() == ClaimPhase.PREPARE_STARTED) {
      rollBack(uid, entry, Optional.empty(), context);
      return;
    }
    S state = states.decode(entry.driverState(), "claim " + uid);
    driver.unprepare(allocationOf(uid, entry), state, context);
    specs.removeTransient(claimSpecs.kind(), uid);
  }

  DriverAllocation allocationOf(String uid, ClaimEntry entry) {
    return new DriverAllocation(new ClaimReference(entry.namespace(), entry.name(), uid),
        driverName, entry.allocation());
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
