package io.github.dra4j.kubeletplugin.internal.node;

import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.Device;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.kubeletplugin.internal.grpc.MethodAlias;
import io.github.dra4j.kubeletplugin.internal.grpc.ParsedRequest;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The DRA node service as gRPC service definitions, for v1 and v1beta1.
 *
 * <p>v1beta1 has the same messages as v1 minus {@code Device.share_id}, so it is served by the
 * same {@link NodeService} under the v1beta1 service name, with share IDs removed from answers
 * (the kubelet's own v1beta1 conversion drops them too). Both versions therefore run the very same
 * handler code and the same serialization lock.
 */
public final class NodeServiceDefinitions {

  private NodeServiceDefinitions() {}

  /**
   * The v1 service, {@code k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin}.
   *
   * @param service the handler
   * @return the definition
   */
  public static ServerServiceDefinition v1(NodeService service) {
    return define(ServiceNames.DRA_V1_SERVICE, service, UnaryOperator.identity());
  }

  /**
   * The v1beta1 service, {@code k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin}.
   *
   * @param service the handler
   * @return the definition
   */
  public static ServerServiceDefinition v1beta1(NodeService service) {
    return define(ServiceNames.DRA_V1BETA1_SERVICE, service,
        NodeServiceDefinitions::withoutShareIds);
  }

  private static ServerServiceDefinition define(
      String serviceName,
      NodeService service,
      UnaryOperator<NodePrepareResourcesResponse> prepareAnswer) {
    return ServerServiceDefinition.builder(serviceName)
        .addMethod(
            ParsedRequest.tolerant(
                MethodAlias.under(DRAPluginGrpc.getNodePrepareResourcesMethod(), serviceName)),
            ServerCalls.asyncUnaryCall(
                (ParsedRequest<NodePrepareResourcesRequest> request,
                    StreamObserver<NodePrepareResourcesResponse> observer) -> respond(observer,
                        request,
                        r -> prepareAnswer.apply(service.prepare(r)))))
        .addMethod(
            ParsedRequest.tolerant(
                MethodAlias.under(DRAPluginGrpc.getNodeUnprepareResourcesMethod(), serviceName)),
            ServerCalls.asyncUnaryCall(
                (ParsedRequest<NodeUnprepareResourcesRequest> request,
                    StreamObserver<NodeUnprepareResourcesResponse> observer) -> respond(observer,
                        request, service::unprepare)))
        .build();
  }

  @FunctionalInterface
  private interface Handler<Q, R> {
    R handle(Q request) throws StatusException;
  }

  private static <Q, R> void respond(
      StreamObserver<R> observer, ParsedRequest<Q> request, Handler<Q, R> handler) {
    if (request.problem() != null) {
      observer.onError(request.problem().asException());
      return;
    }
    R response;
    try {
      response = handler.handle(request.message());
    } catch (StatusException e) {
      observer.onError(e);
      return;
    } catch (RuntimeException e) {
      // A bug, not bad input: answer with a clear status instead of grpc-java's bare UNKNOWN.
      observer.onError(Status.INTERNAL.withDescription("dra4j internal error: " + e)
          .withCause(e).asException());
      return;
    }
    observer.onNext(response);
    observer.onCompleted();
  }

  private static NodePrepareResourcesResponse withoutShareIds(
      NodePrepareResourcesResponse response) {
    boolean anyShareId = response.getClaimsMap().values().stream()
        .anyMatch(claim -> claim.getDevicesList().stream().anyMatch(Device::hasShareId));
    if (!anyShareId) {
      return response; // the usual case: nothing to strip
    }
    NodePrepareResourcesResponse.Builder builder = response.toBuilder();
    for (Map.Entry<String, NodePrepareResourceResponse> entry : response.getClaimsMap()
        .entrySet()) {
      NodePrepareResourceResponse.Builder claim = entry.getValue().toBuilder();
      claim.getDevicesBuilderList().forEach(device -> device.clearShareId());
      builder.putClaims(entry.getKey(), claim.build());
    }
    return builder.build();
  }
}
