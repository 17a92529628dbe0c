package io.github.dra4j.testing.kubelet;

import com.google.protobuf.Message;
import io.github.dra4j.kubelet.wire.internal.GoCodeNames;
import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Makes unary calls with a deadline and records each one, answered or failed, in the {@link
 * CallLog}. Stateless apart from the log it appends to; safe to use from any thread.
 */
final class RecordedCalls {

  private final CallLog log;

  RecordedCalls(CallLog log) {
    this.log = log;
  }

  /**
   * Calls a unary method and records it.
   *
   * @param channel where to call
   * @param method the generated method descriptor
   * @param request the request
   * @param deadline how long the call may take
   * @param driver the driver the call is for; empty for GetInfo, whose record takes the name the
   *     plugin answered
   * @param target the socket path, for the record
   * @return the answer
   * @throws StatusRuntimeException if the call failed (also recorded)
   */
  <Q extends Message, R extends Message> R unary(
      Channel channel, MethodDescriptor<Q, R> method, Q request, Duration deadline, String driver,
      String target) {
    Instant start = log.now();
    KubeletMethod kubeletMethod = KubeletMethod.ofBareName(method.getBareMethodName());
    CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(deadline.toNanos(),
        TimeUnit.NANOSECONDS);
    try {
      R response = ClientCalls.blockingUnaryCall(channel, method, options, request);
      String recordedDriver = response instanceof PluginInfo info ? info.getName() : driver;
      log.append(start, kubeletMethod, recordedDriver, target, method.getServiceName(), request,
          response, Status.OK);
      return response;
    } catch (RuntimeException e) {
      Status status = Status.fromThrowable(e);
      log.append(start, kubeletMethod, driver, target, method.getServiceName(), request, null,
          status);
      throw e instanceof StatusRuntimeException sre
          ? sre
          : status.withCause(e).asRuntimeException();
    }
  }

  /**
   * The text grpc-go gives a failed call's error ({@code rpc error: code = Unknown desc = ...}),
   * which is what the kubelet reports.
   *
   * @param status a non-OK status
   * @return the Go error text
   */
  static String goErrorText(Status status) {
    return "rpc error: code = " + GoCodeNames.of(status.getCode()) + " desc = "
        + (status.getDescription() == null ? "" : status.getDescription());
  }
}
