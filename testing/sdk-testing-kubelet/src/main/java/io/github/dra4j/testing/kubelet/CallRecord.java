package io.github.dra4j.testing.kubelet;

import com.google.protobuf.Message;
import io.grpc.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One call the fake kubelet made on a plugin, or one message or the end of a health stream.
 *
 * <p>For unary calls {@code startedAt} is when the call was sent and {@code duration} how long the
 * answer took. A health stream yields one record per received message ({@code response} set,
 * status OK) and one when it ends ({@code response} null, status of the end); {@code startedAt} is
 * then the time of that event and {@code duration} the time since the stream was opened.
 *
 * @param sequence position in the log, starting at 1
 * @param startedAt when the call started (or the stream event happened)
 * @param duration how long it took
 * @param method which kubelet method
 * @param driver the driver name; for GetInfo the name the plugin answered, empty if it failed
 * @param target the socket called: the registration socket for registration calls, the endpoint
 *     otherwise
 * @param service the fully qualified gRPC service, for example {@code
 *     k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin}
 * @param request what the kubelet sent
 * @param response what the plugin answered; null when the call failed or a stream ended
 * @param status OK, or the gRPC status of the failure (a deadline shows as DEADLINE_EXCEEDED)
 */
public record CallRecord(
    long sequence,
    Instant startedAt,
    Duration duration,
    KubeletMethod method,
    String driver,
    String target,
    String service,
    Message request,
    Message response,
    Status status) {

  /**
   * Rejects missing fields other than {@code response}.
   *
   * @param sequence position in the log, starting at 1
   * @param startedAt when the call started (or the stream event happened)
   * @param duration how long it took
   * @param method which kubelet method
   * @param driver the driver name
   * @param target the socket called
   * @param service the fully qualified gRPC service
   * @param request what the kubelet sent
   * @param response what the plugin answered
   * @param status OK, or the gRPC status of the failure (a deadline shows as DEADLINE_EXCEEDED)
   */
  public CallRecord {
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(status, "status");
  }

  /**
   * Whether the call succeeded at the gRPC level (the answer may still carry claim errors).
   *
   * @return true if the status is OK
   */
  public boolean isSuccess() {
    return status.isOk();
  }
}
