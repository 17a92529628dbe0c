package io.github.dra4j.kubeletplugin.internal.lifecycle;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointData;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointFile;
import io.github.dra4j.kubeletplugin.internal.checkpoint.CheckpointTooLargeException;
import io.github.dra4j.kubeletplugin.internal.checkpoint.ClaimEntry;
import io.github.dra4j.kubeletplugin.internal.checkpoint.ClaimPhase;
import io.github.dra4j.kubeletplugin.internal.claims.ClaimSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Undoes claims the kubelet will never unprepare: every so often, each claim of the checkpoint
 * is looked up in the API server by namespace and name, and one that no longer exists, or exists
 * with another UID (deleted and created again), is unprepared (or rolled back, if its prepare never
 * completed) and dropped; as for the kubelet's unprepare, the claims are marked as being
 * unprepared in the checkpoint before the driver undoes them. This happens when a node was down
 * while its pods were deleted.
 *
 * <p>The API server is asked without holding the checkpoint's lock; a claim found gone is undone
 * under the lock only if its entry is still there, unchanged. An error reading a claim (the API
 * server unreachable, no permission) skips that claim until the next round; it is never taken as
 * gone. Owns one daemon thread; thread-safe.
 *
 * @param <S> the driver's state record
 */
public final class GoneClaimSweep<S> implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(GoneClaimSweep.class);

  private final CheckpointedClaims<S> claims;
  private final ClaimSource source;
  private final Supplier<CallContext> contexts;
  private final BiConsumer<Throwable, String> errors;
  private final ScheduledExecutorService thread;

  /**
   * Prepares a sweep; nothing runs until {@link #start(Duration)}.
   *
   * @param driverName names the thread
   * @param claims the lifecycle
   * @param source where claims are looked up (closed by the caller)
   * @param contexts detached contexts for the driver's undo
   * @param errors where a failed undo is reported
   */
  public GoneClaimSweep(String driverName, CheckpointedClaims<S> claims, ClaimSource source,
      Supplier<CallContext> contexts, BiConsumer<Throwable, String> errors) {
    this.claims = claims;
    this.source = source;
    this.contexts = contexts;
    this.errors = errors;
    this.thread = Executors.newSingleThreadScheduledExecutor(
        new DaemonThreads("dra4j-claim-sweep-" + driverName));
  }

  /**
   * Runs the first sweep in the background after a random half to whole {@code interval}, then
   * one every {@code interval}. Not at once: a plugin restart or an upgrade would then read every
   * prepared claim from the API server right away, on every node a DaemonSet rollout reaches at
   * the same time, for claims the kubelet itself unprepares when their pods go; the sweep is only
   * the backstop for a node that was down meanwhile.
   *
   * @param interval the pause between sweeps
   */
  public void start(Duration interval) {
    long millis = interval.toMillis();
    long first = millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1);
    thread.scheduleWithFixedDelay(this::sweepLogged, first, millis, TimeUnit.MILLISECONDS);
  }

  private void sweepLogged() {
    try {
      sweep();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("Sweep for claims gone from the API server failed; trying again later", e);
    }
  }

  /**
   * One sweep, on the calling thread.
   *
   * @return the UIDs of the claims undone
   * @throws Exception if the checkpoint cannot be read, locked or written
   */
  public List<String> sweep() throws Exception {
    CheckpointData snapshot;
    try (CheckpointFile.Session session = claims.checkpoint().lock()) {
      snapshot = claims.read(session).data();
    }
    List<String> gone = new ArrayList<>();
    for (Map.Entry<String, ClaimEntry> e : snapshot.claims().entrySet()) {
      if (isGone(e.getKey(), e.getValue())) {
        gone.add(e.getKey());
      }
    }
    if (gone.isEmpty()) {
      return gone;
    }
    List<String> undone = new ArrayList<>();
    try (CheckpointFile.Session session = claims.checkpoint().lock()) {
      CheckpointData data = claims.read(session).data();
      List<String> unchanged = new ArrayList<>();
      CheckpointData marked = data;
      for (String uid : gone) {
        Optional<ClaimEntry> entry = data.entry(uid);
        if (entry.isEmpty() || !entry.get().equals(snapshot.entry(uid).orElseThrow())) {
          continue; // changed meanwhile: the kubelet acted on it
        }
        unchanged.add(uid);
        if (entry.get().phase() == ClaimPhase.PREPARE_COMPLETED
            && claims.bootId().equals(entry.get().bootId())) {
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
        Optional<ClaimEntry> entry = data.entry(uid);
        try {
          claims.undo(uid, entry.get(), contexts.get());
          data = data.without(uid);
          undone.add(uid);
          LOG.info("Claim {}/{} (uid {}) no longer exists in the API server; unprepared it",
              entry.get().namespace(), entry.get().name(), uid);
        } catch (Exception failure) {
          errors.accept(failure, "unprepare claim " + entry.get().namespace() + "/"
              + entry.get().name() + " (uid " + uid + "), which no longer exists");
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
      ResourceClaim claim = source.get(entry.namespace(), entry.name(), uid);
      return claim == null || claim.getMetadata() == null
          || !uid.equals(claim.getMetadata().getUid());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return true;
      }
      LOG.debug("Cannot tell whether claim {}/{} still exists: {}", entry.namespace(),
          entry.name(), e.toString());
      return false;
    }
  }

  /** Stops the thread, waiting briefly for a sweep in progress. */
  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
