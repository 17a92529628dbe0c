package io.github.dra4j.kubeletplugin.internal.health;

import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.health.v1.DRAResourceHealthGrpc;
import io.github.dra4j.kubelet.wire.health.v1.DeviceIdentifier;
import io.github.dra4j.kubelet.wire.health.v1.HealthStatus;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesRequest;
import io.github.dra4j.kubelet.wire.health.v1.NodeWatchResourcesResponse;
import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.internal.grpc.MethodAlias;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's device-health stream ({@code NodeWatchResources}), served from a {@link
 * DeviceHealthBoard}.
 *
 * <p>Health v1 and v1alpha1 messages are byte-for-byte identical, so one implementation, written
 * against the v1 messages, is registered under both service names ({@code v1.DRAResourceHealth}
 * and {@code v1alpha1.DRAResourceHealth}). Each open stream is one board subscription; it ends
 * when the kubelet cancels or the plugin stops.
 */
public final class HealthStreamService {

  /** The kubelet truncates longer messages; sending more is waste. */
  static final int MAX_MESSAGE_CHARS = 1024;

  private static final Logger LOG = LoggerFactory.getLogger(HealthStreamService.class);

  private final DeviceHealthBoard board;

  /**
   * Creates the service.
   *
   * @param board the health picture to stream (shared with the driver's reporter)
   */
  public HealthStreamService(DeviceHealthBoard board) {
    this.board = board;
  }

  /**
   * The service definition under a given service name.
   *
   * @param serviceName {@link ServiceNames#HEALTH_V1} or {@link ServiceNames#HEALTH_V1ALPHA1}
   * @return a definition to add to a gRPC server
   */
  public ServerServiceDefinition definition(String serviceName) {
    MethodDescriptor<NodeWatchResourcesRequest, NodeWatchResourcesResponse> method =
        MethodAlias.under(DRAResourceHealthGrpc.getNodeWatchResourcesMethod(), serviceName);
    return ServerServiceDefinition.builder(serviceName)
        .addMethod(method, ServerCalls.asyncServerStreamingCall(this::watch))
        .build();
  }

  private void watch(
      NodeWatchResourcesRequest request, StreamObserver<NodeWatchResourcesResponse> observer) {
    new OpenStream((ServerCallStreamObserver<NodeWatchResourcesResponse>) observer).open(board);
  }

  /** One kubelet stream: sends snapshots until the kubelet cancels. Guarded by its monitor. */
  private static final class OpenStream {
    private final ServerCallStreamObserver<NodeWatchResourcesResponse> stream;
    private boolean ended;
    private Runnable unsubscribe = () -> {};

    OpenStream(ServerCallStreamObserver<NodeWatchResourcesResponse> stream) {
      this.stream = stream;
    }

    void open(DeviceHealthBoard board) {
      stream.setOnCancelHandler(this::end);
      Runnable handle = board.subscribe(this::send);
      synchronized (this) {
        unsubscribe = handle;
        if (!ended) {
          return;
        }
      }
      handle.run();
    }

    private void end() {
      Runnable handle;
      synchronized (this) {
        ended = true;
        handle = unsubscribe;
      }
      handle.run();
      LOG.debug("Device health stream closed by the kubelet");
    }

    private synchronized void send(List<DeviceHealth> snapshot) {
      if (ended || stream.isCancelled()) {
        return;
      }
      try {
        stream.onNext(toResponse(snapshot));
      } catch (RuntimeException e) {
        ended = true;
        LOG.debug("Device health stream broke: {}", e.toString());
      }
    }
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
