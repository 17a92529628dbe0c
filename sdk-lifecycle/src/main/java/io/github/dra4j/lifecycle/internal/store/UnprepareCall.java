package io.github.dra4j.lifecycle.internal.store;

import io.github.dra4j.core.logging.MdcKeys;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointData;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointFile;
import io.github.dra4j.lifecycle.internal.checkpoint.CheckpointTooLargeException;
import io.github.dra4j.lifecycle.internal.checkpoint.ClaimEntry;
import io.github.dra4j.resourceclaim.ClaimReference;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One kubelet unprepare call on the checkpoint. Every claim prepared in this boot is first marked
 * as being unprepared, all in one write, before the driver undoes anything: if the undo fails,
 * the process dies, or the last write fails, the claim is never answered as prepared from its
 * record again; the next prepare, unprepare or start finishes the undo. A claim that cannot be
 * marked (the disk is full) is left alone, prepared, and fails, so the kubelet retries. Then each
 * claim is undone (driver, then CDI spec) and the entries go in a second write. Used once, by one
 * thread, inside the lock session it is given.
 *
 * @param <S> the driver's state record
 */
final class UnprepareCall<S> {

  private static final Logger LOG = LoggerFactory.getLogger(UnprepareCall.class);

  private final ClaimWork<S> work;
  private final CheckpointFile.Session session;
  private final CallContext context;

  UnprepareCall(ClaimWork<S> work, CheckpointFile.Session session, CallContext context) {
    this.work = work;
    this.session = session;
    this.context = context;
  }

  /**
   * Unprepares a kubelet call's claims.
   *
   * @param claims the claims
   * @param data the checkpoint as read in this session
   * @return one result per claim UID
   */
  Map<String, UnprepareResult> run(List<ClaimReference> claims, CheckpointData data) {
    Map<String, UnprepareResult> results = new LinkedHashMap<>();
    CheckpointData before = data;
    data = markUnprepareStarted(claims, data, results);
    CheckpointData marked = data;
    for (ClaimReference ref : claims) {
      if (results.containsKey(ref.uid())) {
        continue; // could not be marked: nothing was undone
      }
      try (MDC.MDCCloseable ignored = MDC.putCloseable(MdcKeys.CLAIM, ref.toString())) {
        Optional<ClaimEntry> entry = data.entry(ref.uid());
        try {
          if (entry.isPresent()) {
            work.undo(ref.uid(), entry.get(), context);
            data = data.without(ref.uid());
          } else {
            work.removeSpec(ref.uid(), ref.namespacedName()); // a leftover, if any
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
    return results;
  }

  /**
   * Marks the call's claims prepared in this boot as being unprepared, in one write. If the write
   * fails they get a failed result and are left out of the call; a checkpoint that would grow
   * past its size limit is not marked, and the claims are unprepared as before (the kubelet's
   * retries could never succeed otherwise).
   */
  private CheckpointData markUnprepareStarted(List<ClaimReference> claims, CheckpointData data,
      Map<String, UnprepareResult> results) {
    CheckpointData marked = data;
    for (ClaimReference ref : claims) {
      Optional<ClaimEntry> entry = data.entry(ref.uid());
      if (entry.isPresent() && work.preparedInThisBoot(entry.get())) {
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
}
