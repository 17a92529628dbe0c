package io.github.dra4j.lifecycle.internal.store;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.core.logging.LogValues;
import io.github.dra4j.core.logging.MdcKeys;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.lifecycle.PreparedClaim;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointData;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointFile;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimEntry;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimPhase;
import io.github.dra4j.resourceclaim.DriverAllocation;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One kubelet prepare call on the checkpoint, in the order that makes a crash at any point
 * recoverable: under the checkpoint's lock, every claim that is not already completed in this boot
 * is admitted (half-done work rolled back, an unfinished unprepare finished, conflicts refused)
 * and marked started in one write; then the driver prepares each and its CDI spec is written;
 * then the prepared claims are marked completed in a second write, and only then answered. A
 * claim completed earlier in this boot gets its stored answer and, if needed, its CDI spec again.
 * A claim that came with its metadata only (the plugin took {@code isPrepared} as a hint) and is
 * no longer completed is read from the API server here, so it goes through the driver once.
 * Used once, by one thread, inside the lock session it is given.
 *
 * @param <S> the driver's state record
 */
final class PrepareCall<S> {

  private static final Logger LOG = LoggerFactory.getLogger(PrepareCall.class);

  private final ClaimWork<S> work;
  private final CheckpointFile.Session session;
  private final CallContext context;

  PrepareCall(ClaimWork<S> work, CheckpointFile.Session session, CallContext context) {
    this.work = work;
    this.session = session;
    this.context = context;
  }

  /**
   * Prepares a kubelet call's claims.
   *
   * @param claims the claims, allocated, or with their metadata only
   * @param data the checkpoint as read in this session
   * @return one result per claim UID
   */
  Map<String, PrepareResult> run(List<ResourceClaim> claims, CheckpointData data) {
    Map<String, PrepareResult> results = new LinkedHashMap<>();
    CheckpointData before = data;
    Map<String, Fresh> fresh = new LinkedHashMap<>();
    for (ResourceClaim claim : claims) {
      try (MDC.MDCCloseable ignored = MDC.putCloseable(MdcKeys.CLAIM, refOf(claim))) {
        data = admit(claim, data, results, fresh);
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
    for (Map.Entry<String, Fresh> prepare : fresh.entrySet()) {
      try (MDC.MDCCloseable ignored = MDC.putCloseable(MdcKeys.CLAIM,
          prepare.getValue().allocation().claim().toString())) {
        data = prepareOne(prepare.getKey(), prepare.getValue(), data, results);
      }
    }
    try {
      session.write(data); // phase 2: the prepared claims are marked completed
    } catch (IOException e) {
      data = undoUnrecorded(fresh, data, results, e);
      try {
        session.write(data);
      } catch (IOException again) {
        LOG.warn("Checkpoint still not writable; the claims stay marked as being prepared and"
            + " are rolled back again later: {}", again.toString());
      }
    }
    return results;
  }

  /** A claim this call prepares from scratch. */
  private record Fresh(DriverAllocation allocation, ResourceClaim claim) {}

  /** The claim for logs; the plugin checked these fields, escaped all the same. */
  private static String refOf(ResourceClaim claim) {
    return LogValues.line(claim.getMetadata().getNamespace() + "/"
        + claim.getMetadata().getName() + ":" + claim.getMetadata().getUid(),
        LogValues.DEFAULT_MAX_CHARS);
  }

  /** A claim the plugin handed over without spec and status, trusting the checkpoint. */
  private static boolean metadataOnly(ResourceClaim claim) {
    return claim.getSpec() == null && claim.getStatus() == null;
  }

  /**
   * Decides what a claim needs: the stored answer (prepared in this boot), or a fresh prepare
   * after rolling back half-done work and checking for conflicts. Returns the checkpoint as it
   * must be written before the hardware is touched.
   */
  private CheckpointData admit(ResourceClaim claim, CheckpointData data,
      Map<String, PrepareResult> results, Map<String, Fresh> fresh) {
    String uid = claim.getMetadata().getUid();
    Optional<ClaimEntry> entry = data.entry(uid);
    if (entry.isPresent() && !work.thisBoot(entry.get())) {
      LOG.info("Claim {} was prepared before the node rebooted; preparing it again",
          refOf(claim));
      data = data.without(uid);
      entry = Optional.empty();
    }
    // Before the allocation is read: the prepare after a restart may carry only the claim's
    // metadata, which is all a completed claim needs (its allocation cannot change while it is
    // prepared, because the claim stays reserved for its pods).
    if (entry.isPresent() && entry.get().phase() == ClaimPhase.PREPARE_COMPLETED) {
      results.put(uid, alreadyPrepared(uid, entry.get()));
      return data;
    }
    DriverAllocation allocation;
    try {
      if (metadataOnly(claim)) {
        // Another process (the other pod of a rolling update) unprepared it since the plugin
        // asked: read it now rather than fail it and have the plugin call again.
        claim = work.read(claim);
      }
      allocation = work.allocationOf(claim);
    } catch (IllegalArgumentException | IllegalStateException e) {
      results.put(uid, PrepareResult.failed(e.getMessage()));
      return data;
    }
    if (entry.isPresent() && entry.get().phase() == ClaimPhase.UNPREPARE_STARTED) {
      // Its undo failed or was cut short: the hardware may be partly undone, so the stored
      // answer is not true any more. Finish the undo, then prepare afresh.
      try {
        work.undo(uid, entry.get(), context);
      } catch (Exception e) {
        results.put(uid, PrepareResult.failed(
            "finish an earlier, unfinished unprepare: " + e.getMessage(), e));
        return data;
      }
      LOG.info("Claim {} was being unprepared; finished that, preparing it again", refOf(claim));
      data = data.without(uid);
    } else if (entry.isPresent()) {
      try {
        work.rollBack(uid, entry.get(), Optional.empty(), context);
      } catch (Exception e) {
        results.put(uid, PrepareResult.failed(
            "roll back an earlier, unfinished prepare: " + e.getMessage(), e));
        return data;
      }
      data = data.without(uid);
    }
    Optional<String> conflict = Conflicts.find(allocation, data, work.bootId());
    if (conflict.isPresent()) {
      results.put(uid, PrepareResult.failed(conflict.get()));
      return data;
    }
    fresh.put(uid, new Fresh(allocation, claim));
    return data.with(uid, ClaimEntry.started(allocation.claim().namespace(),
        allocation.claim().name(), work.bootId(), allocation.devices()));
  }

  /** A claim completed in this boot: no hardware work; its CDI spec is made whole again. */
  private PrepareResult alreadyPrepared(String uid, ClaimEntry entry) {
    try {
      if (work.restoreSpec(uid, entry)) {
        LOG.info("Rewrote the CDI spec of prepared claim {}/{}, which was missing or differed",
            entry.namespace(), entry.name());
      }
    } catch (IOException | RuntimeException e) {
      return PrepareResult.failed("restore CDI spec of prepared claim: " + e.getMessage(), e);
    }
    return PrepareResult.prepared(ClaimSpecs.answer(entry.devices()));
  }

  /** Hardware, then CDI spec; on failure the hardware is rolled back and the entry dropped. */
  private CheckpointData prepareOne(String uid, Fresh claim, CheckpointData data,
      Map<String, PrepareResult> results) {
    ClaimEntry started = data.entry(uid).orElseThrow();
    PreparedClaim<S> prepared;
    try {
      prepared = work.prepare(claim.allocation(), claim.claim(), context);
    } catch (Exception e) {
      results.put(uid, PrepareResult.failed(e.getMessage() == null ? e.toString()
          : e.getMessage(), e));
      return rolledBack(uid, started, Optional.empty(), data);
    }
    try {
      ClaimWork.Completed completed = work.complete(uid, claim.allocation(), prepared, started);
      results.put(uid, completed.answer());
      return data.with(uid, completed.entry());
    } catch (IOException | RuntimeException e) {
      results.put(uid, PrepareResult.failed("write CDI spec: " + e.getMessage(), e));
      return rolledBack(uid, started, Optional.ofNullable(prepared.state()), data);
    }
  }

  /** Rolls a claim back; the entry goes if that worked and stays (started) if not. */
  private CheckpointData rolledBack(String uid, ClaimEntry entry, Optional<S> state,
      CheckpointData data) {
    try {
      work.rollBack(uid, entry, state, context);
      return data.without(uid);
    } catch (Exception e) {
      LOG.warn("Rolling back the failed prepare of claim {}/{} failed; it is tried again later",
          entry.namespace(), entry.name(), e);
      return data;
    }
  }

  private CheckpointData undoUnrecorded(Map<String, Fresh> fresh, CheckpointData data,
      Map<String, PrepareResult> results, IOException cause) {
    for (String uid : fresh.keySet()) {
      Optional<ClaimEntry> entry = data.entry(uid);
      if (entry.isEmpty() || entry.get().phase() != ClaimPhase.PREPARE_COMPLETED) {
        continue; // failed already, and rolled back or left for later
      }
      results.put(uid, PrepareResult.failed("record prepared claim: " + cause.getMessage(),
          cause));
      data = rolledBack(uid, entry.get(), Optional.ofNullable(work.state(uid, entry.get())),
          data);
    }
    return data;
  }
}
