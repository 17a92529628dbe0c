package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubeletplugin.ClaimReference;
import io.github.dra4j.kubeletplugin.PrepareResult;
import io.github.dra4j.kubeletplugin.PreparedDevice;
import io.github.dra4j.kubeletplugin.UnprepareResult;
import io.github.dra4j.kubeletplugin.wire.dra.v1.Claim;
import io.github.dra4j.kubeletplugin.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubeletplugin.wire.dra.v1.Device;
import io.github.dra4j.kubeletplugin.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubeletplugin.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubeletplugin.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubeletplugin.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubeletplugin.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends prepare and unprepare calls to one plugin instance over the DRA service chosen at its
 * registration, with the kubelet's deadline, and judges the answers with {@link ResponseCheck}.
 *
 * <p>Requests are built as v1 messages; over v1beta1 they are sent as the (wire-identical)
 * v1beta1 messages, and the answer loses share IDs as it does in the kubelet's conversion.
 * Stateless; safe from any thread.
 */
final class NodeCalls {

  static final String PREPARE = "NodePrepareResources";
  static final String UNPREPARE = "NodeUnprepareResources";

  private final RecordedCalls calls;
  private final Duration deadline;

  NodeCalls(RecordedCalls calls, Duration deadline) {
    this.calls = calls;
    this.deadline = deadline;
  }

  PrepareOutcome prepare(PluginInstance instance, List<ClaimReference> claims) {
    NodePrepareResourcesRequest request =
        NodePrepareResourcesRequest.newBuilder().addAllClaims(wire(claims)).build();
    RegisteredPlugin plugin = instance.view();
    NodePrepareResourcesResponse response;
    try {
      response = instance.service() == DraService.V1
          ? call(instance, DRAPluginGrpc.getNodePrepareResourcesMethod(), request)
          : WireBytes.reparse(call(instance, io.github.dra4j.kubeletplugin.wire.dra.v1beta1
                  .DRAPluginGrpc.getNodePrepareResourcesMethod(), WireBytes.reparse(request,
                  io.github.dra4j.kubeletplugin.wire.dra.v1beta1.NodePrepareResourcesRequest
                      .parser())),
              NodePrepareResourcesResponse.parser());
    } catch (StatusRuntimeException e) {
      return new PrepareOutcome(plugin, claims, Map.of(), RecordedCalls.goErrorText(e.getStatus()));
    }
    boolean keepShareIds = instance.service() == DraService.V1;
    Map<String, PrepareResult> results = new LinkedHashMap<>();
    Map<String, String> errors = new LinkedHashMap<>();
    response.getClaimsMap().forEach((uid, answer) -> {
      results.put(uid, result(answer, keepShareIds));
      errors.put(uid, answer.getError());
    });
    return new PrepareOutcome(
        plugin, claims, results, ResponseCheck.check(PREPARE, claims, errors));
  }

  UnprepareOutcome unprepare(PluginInstance instance, List<ClaimReference> claims) {
    NodeUnprepareResourcesRequest request =
        NodeUnprepareResourcesRequest.newBuilder().addAllClaims(wire(claims)).build();
    RegisteredPlugin plugin = instance.view();
    NodeUnprepareResourcesResponse response;
    try {
      response = instance.service() == DraService.V1
          ? call(instance, DRAPluginGrpc.getNodeUnprepareResourcesMethod(), request)
          : WireBytes.reparse(call(instance, io.github.dra4j.kubeletplugin.wire.dra.v1beta1
                  .DRAPluginGrpc.getNodeUnprepareResourcesMethod(), WireBytes.reparse(request,
                  io.github.dra4j.kubeletplugin.wire.dra.v1beta1.NodeUnprepareResourcesRequest
                      .parser())),
              NodeUnprepareResourcesResponse.parser());
    } catch (StatusRuntimeException e) {
      return new UnprepareOutcome(
          plugin, claims, Map.of(), RecordedCalls.goErrorText(e.getStatus()));
    }
    Map<String, UnprepareResult> results = new LinkedHashMap<>();
    Map<String, String> errors = new LinkedHashMap<>();
    response.getClaimsMap().forEach((uid, answer) -> {
      results.put(uid, answer.getError().isEmpty()
          ? UnprepareResult.ok()
          : UnprepareResult.failed(answer.getError()));
      errors.put(uid, answer.getError());
    });
    return new UnprepareOutcome(
        plugin, claims, results, ResponseCheck.check(UNPREPARE, claims, errors));
  }

  private <Q extends com.google.protobuf.Message, R extends com.google.protobuf.Message> R call(
      PluginInstance instance, io.grpc.MethodDescriptor<Q, R> method, Q request) {
    return calls.unary(instance.connection().channel(), method, request, deadline,
        instance.driver(), instance.endpoint());
  }

  private static List<Claim> wire(List<ClaimReference> claims) {
    return claims.stream()
        .map(c -> Claim.newBuilder()
            .setNamespace(c.namespace()).setName(c.name()).setUid(c.uid()).build())
        .toList();
  }

  private static PrepareResult result(NodePrepareResourceResponse answer, boolean keepShareIds) {
    List<PreparedDevice> devices = answer.getDevicesList().stream()
        .map(d -> device(d, keepShareIds))
        .toList();
    return new PrepareResult(devices, answer.getError().isEmpty() ? null : answer.getError());
  }

  private static PreparedDevice device(Device device, boolean keepShareId) {
    return new PreparedDevice(device.getRequestNamesList(), device.getPoolName(),
        device.getDeviceName(), device.getCdiDeviceIdsList(),
        keepShareId && device.hasShareId() ? device.getShareId() : null, null);
  }
}
