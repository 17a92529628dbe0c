package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubelet.wire.health.v1alpha1.DRAResourceHealthGrpc;
import io.github.dra4j.kubelet.wire.health.v1alpha1.NodeWatchResourcesRequest;
import io.github.dra4j.kubelet.wire.health.v1alpha1.NodeWatchResourcesResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A v1alpha1 health service that sends one fixed snapshot per stream and keeps the stream open
 * until told to end it; it can fail the first streams. Thread-safe.
 */
final class RawHealthService extends DRAResourceHealthGrpc.DRAResourceHealthImplBase {

  private final NodeWatchResourcesResponse snapshot;
  private final AtomicInteger failures;
  private final AtomicInteger calls = new AtomicInteger();
  private final List<StreamObserver<NodeWatchResourcesResponse>> open = new ArrayList<>();

  RawHealthService(NodeWatchResourcesResponse snapshot, int failFirst) {
    this.snapshot = snapshot;
    this.failures = new AtomicInteger(failFirst);
  }

  int calls() {
    return calls.get();
  }

  @Override
  public void nodeWatchResources(NodeWatchResourcesRequest request,
      StreamObserver<NodeWatchResourcesResponse> observer) {
    calls.incrementAndGet();
    if (failures.getAndDecrement() > 0) {
      observer.onError(Status.UNAVAILABLE.withDescription("not yet").asException());
      return;
    }
    synchronized (this) {
      observer.onNext(snapshot);
      open.add(observer);
    }
  }

  /** Ends every open stream normally. */
  synchronized void endStreams() {
    open.forEach(StreamObserver::onCompleted);
    open.clear();
  }
}
