package io.github.dra4j.kubeletplugin.internal.lifecycle;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.cdi.store.WriteMode;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointData;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointFile;
import io.github.dra4j.kubeletplugin.internal.checkpoint.ClaimEntry;
import io.github.dra4j.kubeletplugin.internal.checkpoint.ClaimPhase;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import io.github.dra4j.kubeletplugin.internal.node.NodeService;
import io.github.dra4j.kubeletplugin.lifecycle.PreparedClaim;
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
 * and marked started in one write;
 * then the driver prepares each and its CDI spec is written; then the prepared claims are marked
 * completed in a second write, and only then answered. A claim completed earlier in this boot
 * gets its stored answer and, if needed, its CDI spec again. Used once, by one thread.
 *
 * @param <S> the driver's state record
 */
final class PrepareCall<S> {

  private static final Logger LOG = LoggerFactory.getLogger(PrepareCall.class);

  private final CheckpointedClaims<S> owner;
  private final CallContext context;

  PrepareCall(CheckpointedClaims<S> owner, CallContext context) {
    this.owner = owner;
    this.context = context;
  }

  /**
   * Prepares a kubelet call's claims.
   *
   * @param claims the claims, allocated
   * @return one result per claim UID
   * @throws IOException if the checkpoint cannot be read or locked: the whole call fails
   * @throws InterruptedException if interrupted while waiting for the lock
   */
  Map<String, PrepareResult> run(List<ResourceClaim> claims)
      throws IOException, InterruptedException {
    Map<String, PrepareResult> results = new LinkedHashMap<>();
    try (CheckpointFile.Session session = owner.checkpoint().lock()) {
      CheckpointData data = owner.read(session).data();
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
              + " and are rolled back again later: {}", owner.checkpoint().file(), again.toString());
        }
      }
    }
    return results;
  }

  /** A claim this call prepares from scratch. */
  private record Fresh(DriverAllocation allocation, ResourceClaim claim) {}

  /** The claim for logs; the plugin checked these fields, escaped all the same. */
  private static String refOf(ResourceClaim claim) {
    return LogText.text(claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName()
        + ":" + claim.getMetadata().getUid());
  }

  /**
   * Decides what a claim needs: the stored answer (prepared in this boot), or a fresh prepare
   * after rolling back half-done work and checking for conflicts. Returns the checkpoint as it
   * must be written before the hardware is touched.
   */
  private CheckpointData admit(ResourceClaim claim, CheckpointData data, CallContext context,
      Map<String, PrepareResult> results, Map<String, Fresh> fresh) {
    String uid = claim.getMetadata().getUid();
    Optional<ClaimEntry> entry = data.entry(uid);
    if (entry.isPresent() && !owner.bootId().equals(entry.get().bootId())) {
      LOG.info("Claim {} was prepared before the node rebooted; preparing it again",
          refOf(claim));
      data = data.without(uid);
      entry = Optional.empty();
    }
    // Before the allocation is read: the kubelet's prepare after a restart may carry only the
    // claim's metadata, which is all a completed claim needs (its allocation cannot change while
    // it is prepared, because the claim stays reserved for its pods).
    if (entry.isPresent() && entry.get().phase() == ClaimPhase.PREPARE_COMPLETED) {
      results.put(uid, alreadyPrepared(uid, entry.get()));
      return data;
    }
    DriverAllocation allocation;
    try {
      allocation = DriverAllocation.of(claim, owner.driverName());
    } catch (IllegalArgumentException e) {
      results.put(uid, PrepareResult.failed(e.getMessage()));
      return data;
    }
    if (entry.isPresent() && entry.get().phase() == ClaimPhase.UNPREPARE_STARTED) {
      // Its undo failed or was cut short: the hardware may be partly undone, so the stored
      // answer is not true any more. Finish the undo, then prepare afresh.
      try {
        owner.undo(uid, entry.get(), context);
      } catch (Exception e) {
        results.put(uid, PrepareResult.failed(
            "finish an earlier, unfinished unprepare: " + e.getMessage(), e));
        return data;
      }
      LOG.info("Claim {} was being unprepared; finished that, preparing it again", refOf(claim));
      data = data.without(uid);
    } else if (entry.isPresent()) {
      try {
        owner.rollBack(uid, entry.get(), Optional.empty(), context);
      } catch (Exception e) {
        results.put(uid, PrepareResult.failed(
            "roll back an earlier, unfinished prepare: " + e.getMessage(), e));
        return data;
      }
      data = data.without(uid);
    }
    Optional<String> conflict = Conflicts.find(allocation, data, owner.bootId());
    if (conflict.isPresent()) {
      results.put(uid, PrepareResult.failed(conflict.get()));
      return data;
    }
    fresh.put(uid, new Fresh(allocation, claim));
    return data.with(uid, ClaimEntry.started(allocation.claim().namespace(),
        allocation.claim().name(), owner.bootId(), allocation.devices()));
  }

  /** A claim completed in this boot: no hardware work; its CDI spec is made whole again. */
  private PrepareResult alreadyPrepared(String uid, ClaimEntry entry) {
    try {
      if (owner.restoreSpec(uid, entry)) {
        LOG.info("Rewrote the CDI spec of prepared claim {}/{}, which was missing or differed",
            entry.namespace(), entry.name());
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
    PreparedClaim<S> prepared;
    try {
      prepared = owner.driver().prepare(allocation, work.claim(), context);
      if (prepared == null) {
        throw new IllegalStateException("driver returned no result");
      }
    } catch (Exception e) {
      results.put(uid, PrepareResult.failed(e.getMessage() == null ? e.toString()
          : e.getMessage(), e));
      return rolledBack(uid, started, Optional.empty(), data, context);
    }
    try {
      ClaimSpecs.ClaimOutput output = owner.claimSpecs().build(allocation, prepared);
      var json = output.spec().map(ClaimSpecs::toJson).orElse(null);
      if (output.spec().isPresent()) {
        owner.specs().writeTransient(output.spec().get(), uid, WriteMode.REPLACE_IF_CHANGED);
      } else {
        owner.removeSpec(uid, allocation.claim().namespacedName());
      }
      results.put(uid, PrepareResult.prepared(output.devices()));
      return data.with(uid, started.completed(ClaimSpecs.stored(output.devices()), json,
          owner.states().encode(prepared.state())));
    } catch (IOException | RuntimeException e) {
      results.put(uid, PrepareResult.failed("write CDI spec: " + e.getMessage(), e));
      return rolledBack(uid, started, Optional.ofNullable(prepared.state()), data, context);
    }
  }

  /** Rolls a claim back; the entry goes if that worked and stays (started) if not. */
  private CheckpointData rolledBack(String uid, ClaimEntry entry, Optional<S> state,
      CheckpointData data, CallContext context) {
    try {
      owner.rollBack(uid, entry, state, context);
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
      S state = owner.states().decode(entry.get().driverState(), "claim " + uid);
      data = rolledBack(uid, entry.get(), Optional.ofNullable(state), data, context);
    }
    return data;
  }
}
