package io.github.dra4j.benchmarks.faults;

import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.testing.kubelet.KubeletClient;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The kubelet's calls while an attack runs: a prepare every 100 ms over one connection opened
 * before the attack (the kubelet keeps one per plugin), each timed, with the driver's resident
 * memory sampled alongside. On a thread of its own until {@link #stop()}.
 */
final class KubeletLoad {

  private final ManagedChannel connection;
  private final NodePrepareResourcesRequest request;
  private final String uid;
  private final LongSupplier rssKib;
  private final List<Long> nanos = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private long peakRssKib;

  /** What the calls met. */
  record Summary(int answered, List<String> failures, double p50Millis, double p99Millis,
      double maxMillis, long peakRssKib) {

    @Override
    public String toString() {
      return String.format("%d prepares answered, %d failed%s; latency p50 %.1f ms, p99 %.1f ms,"
          + " max %.1f ms", answered, failures.size(),
          failures.isEmpty() ? "" : " (first: " + failures.get(0) + ")", p50Millis, p99Millis,
          maxMillis);
    }
  }

  KubeletLoad(ManagedChannel connection, String uid, LongSupplier rssKib) {
    this.connection = connection;
    this.uid = uid;
    this.rssKib = rssKib;
    this.request = NodePrepareResourcesRequest.newBuilder()
        .addClaims(KubeletClient.claim("default", "bench", uid)).build();
    this.thread = new Thread(this::run, "kubelet-load");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (running) {
      long begin = System.nanoTime();
      String failure = null;
      try {
        String error = DRAPluginGrpc.newBlockingStub(connection)
            .withDeadlineAfter(45, TimeUnit.SECONDS).nodePrepareResources(request)
            .getClaimsOrThrow(uid).getError();
        failure = error.isEmpty() ? null : error;
      } catch (RuntimeException e) {
        failure = e.getMessage();
      }
      long took = System.nanoTime() - begin;
      synchronized (this) {
        if (failure == null) {
          nanos.add(took);
        } else {
          failures.add(failure);
        }
        peakRssKib = Math.max(peakRssKib, rssKib.getAsLong());
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Stops the calls and sums them up. */
  Summary stop() throws InterruptedException {
    running = false;
    thread.join(60_000);
    synchronized (this) {
      long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
      return new Summary(sorted.length, List.copyOf(failures), percentile(sorted, 0.5),
          percentile(sorted, 0.99), sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
          peakRssKib);
    }
  }

  private static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.round((sorted.length - 1) * p))] / 1e6;
  }
}
