package io.github.dra4j.testing.kubelet;

import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
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
    RegisteredPlugin plugin = instance.view();
    NodePrepareResourcesResponse response;
    try {
      response = call(instance, DRAPluginGrpc.getNodePrepareResourcesMethod(),
          io.github.dra4j.kubelet.wire.dra.v1beta1.DRAPluginGrpc
              .getNodePrepareResourcesMethod(),
          NodePrepareResourcesRequest.newBuilder().addAllClaims(wire(claims)).build(),
          io.github.dra4j.kubelet.wire.dra.v1beta1.NodePrepareResourcesRequest.parser(),
          NodePrepareResourcesResponse.parser());
    } catch (StatusRuntimeException e) {
      return new PrepareOutcome(plugin, claims, Map.of(), RecordedCalls.goErrorText(e.getStatus()));
    }
    boolean keepShareIds = instance.service() == DraService.V1;
    Map<String, PrepareOutcome.ClaimResult> results = new LinkedHashMap<>();
    Map<String, String> errors = new LinkedHashMap<>();
    response.getClaimsMap().forEach((uid, answer) -> {
      results.put(uid, result(answer, keepShareIds));
      errors.put(uid, answer.getError());
    });
    return new PrepareOutcome(
        plugin, claims, results, ResponseCheck.check(PREPARE, claims, errors));
  }

  UnprepareOutcome unprepare(PluginInstance instance, List<ClaimReference> claims) {
    RegisteredPlugin plugin = instance.view();
    NodeUnprepareResourcesResponse response;
    try {
      response = call(instance, DRAPluginGrpc.getNodeUnprepareResourcesMethod(),
          io.github.dra4j.kubelet.wire.dra.v1beta1.DRAPluginGrpc
              .getNodeUnprepareResourcesMethod(),
          NodeUnprepareResourcesRequest.newBuilder().addAllClaims(wire(claims)).build(),
          io.github.dra4j.kubelet.wire.dra.v1beta1.NodeUnprepareResourcesRequest.parser(),
          NodeUnprepareResourcesResponse.parser());
    } catch (StatusRuntimeException e) {
      return new UnprepareOutcome(
          plugin, claims, Map.of(), RecordedCalls.goErrorText(e.getStatus()));
    }
    Map<String, UnprepareOutcome.ClaimResult> results = new LinkedHashMap<>();
    Map<String, String> errors = new LinkedHashMap<>();
    response.getClaimsMap().forEach((uid, answer) -> {
      results.put(uid, new UnprepareOutcome.ClaimResult(
          answer.getError().isEmpty() ? null : answer.getError()));
      errors.put(uid, answer.getError());
    });
    return new UnprepareOutcome(
        plugin, claims, results, ResponseCheck.check(UNPREPARE, claims, errors));
  }

  /**
   * Calls the instance's chosen service: the v1 method directly, or the v1beta1 method with the
   * request and answer carried across as wire-identical messages.
   */
  private <Q extends Message, R extends Message, BQ extends Message, BR extends Message> R call(
      PluginInstance instance, MethodDescriptor<Q, R> v1, MethodDescriptor<BQ, BR> v1beta1,
      Q request, Parser<BQ> betaRequestParser, Parser<R> responseParser) {
    ManagedChannel channel = instance.connection().channel();
    if (instance.service() == DraService.V1) {
      return calls.unary(channel, v1, request, deadline, instance.driver(), instance.endpoint());
    }
    return WireBytes.reparse(calls.unary(channel, v1beta1,
        WireBytes.reparse(request, betaRequestParser), deadline, instance.driver(),
        instance.endpoint()), responseParser);
  }

  private static List<Claim> wire(List<ClaimReference> claims) {
    return claims.stream()
        .map(c -> Claim.newBuilder()
            .setNamespace(c.namespace()).setName(c.name()).setUid(c.uid()).build())
        .toList();
  }

  private static PrepareOutcome.ClaimResult result(
      NodePrepareResourceResponse answer, boolean keepShareIds) {
    List<PrepareOutcome.Device> devices = answer.getDevicesList().stream()
        .map(d -> device(d, keepShareIds))
        .toList();
    return new PrepareOutcome.ClaimResult(
        devices, answer.getError().isEmpty() ? null : answer.getError());
  }

  private static PrepareOutcome.Device device(
      io.github.dra4j.kubelet.wire.dra.v1.Device device, boolean keepShareId) {
    return new PrepareOutcome.Device(device.getRequestNamesList(), device.getPoolName(),
        device.getDeviceName(), device.getCdiDeviceIdsList(),
        keepShareId && device.hasShareId() ? device.getShareId() : null);
  }
}
