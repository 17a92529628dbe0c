package io.github.dra4j.kubeletplugin.internal.health;

import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.health.v1.DRAResourceHealthGrpc;
import io.github.dra4j.kubelet.wire.health.v1.DeviceIdentifier;
import io.github.dra4j.kubelet.wire.health.v1.HealthStatus;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesRequest;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.internal.grpc.MethodAlias;
import io.github.dra4j.kubeletplugin.internal.server.Refusals;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The kubelet's device-health stream ({@code NodeWatchResources}), served from a {@link
 * DeviceHealthBoard}.
 *
 * <p>Health v1 and v1alpha1 messages are byte-for-byte identical, so one implementation, written
 * against the v1 messages, is registered under both service names ({@code v1.DRAResourceHealth}
 * and {@code v1alpha1.DRAResourceHealth}). Each open stream is one board subscription ({@link
 * HealthWatcher}: never more than one unread message, dropped when it reads nothing for the stall
 * limit); it ends when the client cancels or the plugin stops. At most {@value #MAX_STREAMS}
 * streams are open at once: the kubelet keeps one per plugin, and a further stream fails with
 * RESOURCE_EXHAUSTED. A snapshot is converted to its wire message once, whatever the number of
 * streams. Thread-safe.
 */
public final class HealthStreamService {

  /** The kubelet truncates longer messages; sending more is waste. */
  static final int MAX_MESSAGE_CHARS = 1024;

  /** Streams served at once; the kubelet opens one per plugin, again 5 s after one ended. */
  public static final int MAX_STREAMS = 16;

  private final DeviceHealthBoard board;
  private final Duration stallLimit;
  private final Refusals tooMany;
  private final Refusals slowReaders;
  private final AtomicInteger open = new AtomicInteger();
  private volatile Converted last = new Converted(List.of(), toResponse(List.of()));

  /** The wire message of the latest snapshot, shared by every stream. */
  private record Converted(List<DeviceHealth> snapshot, NodeWatchResourcesResponse response) {}

  /**
   * Creates the service.
   *
   * @param board the health picture to stream (shared with the driver's reporter)
   * @param refreshInterval how often the board sends an unchanged snapshot again; a stream that
   *     leaves one unread for three of these (30 s with the default interval, the kubelet's own
   *     health timeout) is dropped
   * @param registry where refused and dropped streams are counted
   * @param driverName the driver, for the meters
   */
  public HealthStreamService(DeviceHealthBoard board, Duration refreshInterval,
      MeterRegistry registry, String driverName) {
    this.board = board;
    this.stallLimit = refreshInterval.multipliedBy(3);
    this.tooMany = new Refusals(registry, driverName, "dra", "health_streams");
    this.slowReaders = new Refusals(registry, driverName, "dra", "slow_reader");
  }

  /**
   * The service definition under a given service name.
   *
   * @param serviceName {@link ServiceNames#HEALTH_V1} or {@link ServiceNames#HEALTH_V1ALPHA1}
   * @return a definition to add to a gRPC server
   */
  public ServerServiceDefinition definition(String serviceName) {
    MethodDescriptor<NodeWatchResourcesRequest, NodeWatchResourcesResponse> method = MethodAlias
        .under(DRAResourceHealthGrpc.getNodeWatchResourcesMethod(), serviceName);
    return ServerServiceDefinition.builder(serviceName)
        .addMethod(method, ServerCalls.asyncServerStreamingCall(this::watch))
        .build();
  }

  /**
   * How long a stream may leave a snapshot unread before it is dropped.
   *
   * @return three refresh intervals
   */
  public Duration stallLimit() {
    return stallLimit;
  }

  private void watch(
      NodeWatchResourcesRequest request, StreamObserver<NodeWatchResourcesResponse> observer) {
    ServerCallStreamObserver<NodeWatchResourcesResponse> stream = (ServerCallStreamObserver<NodeWatchResourcesResponse>) observer;
    if (open.incrementAndGet() > MAX_STREAMS) {
      open.decrementAndGet();
      tooMany.refused(() -> "DRA socket: refused a device health stream: " + MAX_STREAMS
          + " are open, the most served at once");
      stream.onError(Status.RESOURCE_EXHAUSTED.withDescription(MAX_STREAMS + " device health"
          + " streams are open, the most the plugin serves at once")
          .withCause(Refusals.cause("health_streams")).asRuntimeException());
      return;
    }
    new HealthWatcher(stream, this::response, stallLimit, System::nanoTime,
        () -> slowReaders.refused(() -> "DRA socket: dropped a device health stream that left"
            + " an update unread for over " + stallLimit.toMillis() + " ms"),
        open::decrementAndGet).open(board);
  }

  /** Streams open now. */
  int openStreams() {
    return open.get();
  }

  private NodeWatchResourcesResponse response(List<DeviceHealth> snapshot) {
    Converted converted = last;
    if (converted.snapshot() != snapshot) { // the board hands every stream the same list
      converted = new Converted(snapshot, toResponse(snapshot));
      last = converted;
    }
    return converted.response();
  }

  /**
   * Converts a snapshot to the wire message.
   *
   * @param snapshot every reported device
   * @return the response listing them all
   */
  static NodeWatchResourcesResponse toResponse(List<DeviceHealth> snapshot) {
    NodeWatchResourcesResponse.Builder response = NodeWatchResourcesResponse.newBuilder();
    for (DeviceHealth device : snapshot) {
      String message = device.message();
      if (message.length() > MAX_MESSAGE_CHARS) {
        message = message.substring(0, MAX_MESSAGE_CHARS - 3) + "...";
      }
      response
          .addDevicesBuilder()
          .setDevice(
              DeviceIdentifier.newBuilder()
                  .setPoolName(device.poolName())
                  .setDeviceName(device.deviceName()))
          .setHealth(
              switch (device.state()) {
                case HEALTHY -> HealthStatus.HEALTHY;
                case UNHEALTHY -> HealthStatus.UNHEALTHY;
                case UNKNOWN -> HealthStatus.UNKNOWN;
              })
          .setLastUpdatedTime(device.checkedAt().getEpochSecond())
          .setHealthCheckTimeoutSeconds(
              device.checkTimeout() == null ? 0 : device.checkTimeout().toSeconds())
          .setMessage(message);
    }
    return response.build();
  }
}
