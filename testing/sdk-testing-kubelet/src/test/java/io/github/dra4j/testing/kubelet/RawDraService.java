package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.grpc.stub.StreamObserver;
import java.util.function.Function;

/** A DRA v1 service that answers whatever a test wants, including answers the SDK never gives. */
final class RawDraService extends DRAPluginGrpc.DRAPluginImplBase {

  private final Function<NodePrepareResourcesRequest, NodePrepareResourcesResponse> prepare;
  private final Function<NodeUnprepareResourcesRequest, NodeUnprepareResourcesResponse> unprepare;

  RawDraService(
      Function<NodePrepareResourcesRequest, NodePrepareResourcesResponse> prepare,
      Function<NodeUnprepareResourcesRequest, NodeUnprepareResourcesResponse> unprepare) {
    this.prepare = prepare;
    this.unprepare = unprepare;
  }

  @Override
  public void nodePrepareResources(
      NodePrepareResourcesRequest request, StreamObserver<NodePrepareResourcesResponse> observer) {
    observer.onNext(prepare.apply(request));
    observer.onCompleted();
  }

  @Override
  public void nodeUnprepareResources(NodeUnprepareResourcesRequest request,
      StreamObserver<NodeUnprepareResourcesResponse> observer) {
    observer.onNext(unprepare.apply(request));
    observer.onCompleted();
  }
}
