package io.github.dra4j.benchmarks.crash;

import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The API server's faults of a crash run: now and then every claim read hangs (read, never
 * answered) for a while, or the next few claim reads are answered with 500. Claim reads are the
 * only requests the crash-test driver makes, and the harness's own writes (new claims) go on
 * while they hang. A short hang ends within a second; a long one outlasts the kubelet's 45 s
 * deadline. Used by the harness thread; a hang is ended by the scheduler's thread.
 */
final class ApiFaults {

  /** The longest short hang. */
  static final long SHORT_HANG_MILLIS = 1000;
  /** A long hang: beyond the kubelet's deadline for a call. */
  static final long LONG_HANG_MILLIS = 50_000;

  private final InMemoryApiServer server;
  private final Random random;
  private final ScheduledExecutorService scheduler;
  private final double chance;
  private final double longHangChance;
  private final ApiFaultLog log = new ApiFaultLog();
  private volatile boolean hanging;

  ApiFaults(InMemoryApiServer server, Random random, ScheduledExecutorService scheduler,
      double chance, double longHangChance) {
    this.server = server;
    this.random = random;
    this.scheduler = scheduler;
    this.chance = chance;
    this.longHangChance = longHangChance;
  }

  /** Perhaps begins a fault, unless one is under way. */
  void maybeBegin() {
    if (current() != null || random.nextDouble() >= chance) {
      return;
    }
    if (random.nextBoolean()) {
      long millis = random.nextDouble() < longHangChance ? LONG_HANG_MILLIS
          : 100 + random.nextInt((int) SHORT_HANG_MILLIS - 99);
      hanging = true;
      server.hangNext(ApiVerb.GET, "resourceclaims", Integer.MAX_VALUE);
      log.hang(millis);
      // The hang ends on its own; nothing waits for that.
      var unused = scheduler.schedule(this::end, millis, TimeUnit.MILLISECONDS);
    } else {
      server.failNext(ApiVerb.GET, "resourceclaims", 500, 1 + random.nextInt(4));
      log.errors();
    }
  }

  /**
   * The fault under way.
   *
   * @return a hang, 500 answers still to come, or null
   */
  ApiFaultLog.Fault current() {
    if (hanging) {
      return ApiFaultLog.Fault.HANG;
    }
    return server.pendingFaults() > 0 ? ApiFaultLog.Fault.ERRORS : null;
  }

  /** Ends every fault: the held claim reads are answered. */
  void end() {
    server.clearFaults();
    server.clearHangs();
    hanging = false;
  }

  ApiFaultLog log() {
    return log;
  }
}
