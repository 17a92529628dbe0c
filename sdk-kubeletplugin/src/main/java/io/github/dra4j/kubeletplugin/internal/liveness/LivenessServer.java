package io.github.dra4j.kubeletplugin.internal.liveness;

import io.github.dra4j.kubelet.wire.internal.EpollEventLoops;
import io.github.dra4j.kubeletplugin.internal.server.ServerGuard;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollServerSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The standard {@code grpc.health.v1.Health} service on a TCP port, for a DaemonSet's gRPC
 * liveness and readiness probes.
 *
 * <p>{@code Check} answers SERVING only while the plugin's registration and DRA servers run on
 * their own, intact socket files; otherwise NOT_SERVING, so the kubelet restarts a driver pod whose
 * sockets were deleted. The overall status is under the empty service name, under {@code
 * liveness} (the name the reference drivers' probes ask for) and under the driver name. Under
 * {@code readiness} it answers SERVING only while the plugin serves and its devices are
 * published, so a pod whose devices the scheduler cannot see is not ready; other names get
 * NOT_FOUND. {@code Watch} is not offered (UNIMPLEMENTED): probes use
 * {@code Check}. Owned by one plugin, which closes it.
 */
public final class LivenessServer implements AutoCloseable {

  /** What probes written for the reference drivers ask for. */
  private static final String LIVENESS = "liveness";

  /** What a readiness probe asks for. */
  private static final String READINESS = "readiness";

  private final Server server;

  private LivenessServer(Server server) {
    this.server = server;
  }

  /**
   * Starts the server.
   *
   * @param address where to listen; port 0 picks a free port
   * @param serviceName the name besides "" and "liveness" that reports the plugin's status (the
   *     driver name)
   * @param serving whether the plugin is serving right now
   * @param ready whether the plugin is ready right now (checked only while it serves)
   * @param loops event loops (borrowed)
   * @param executor handler executor (borrowed)
   * @param guard the limits on connections and what they may hold
   * @return the running server
   * @throws IOException if the port cannot be bound
   */
  public static LivenessServer start(
      InetSocketAddress address,
      String serviceName,
      BooleanSupplier serving,
      BooleanSupplier ready,
      EpollEventLoops loops,
      Executor executor,
      ServerGuard guard)
      throws IOException {
    NettyServerBuilder builder = NettyServerBuilder.forAddress(address)
        .bossEventLoopGroup(loops.group())
        .workerEventLoopGroup(loops.group())
        .executor(executor)
        .withChildOption(ChannelOption.SO_KEEPALIVE, null);
    guard.apply(builder, EpollServerSocketChannel::new);
    Server server = builder.addService(new HealthCheck(serviceName, serving, ready)).build()
        .start();
    return new LivenessServer(server);
  }

  /**
   * The bound port.
   *
   * @return the TCP port
   */
  public int port() {
    return server.getPort();
  }

  /** Stops the server. */
  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static final class HealthCheck extends HealthGrpc.HealthImplBase {
    private final String serviceName;
    private final BooleanSupplier serving;
    private final BooleanSupplier ready;

    HealthCheck(String serviceName, BooleanSupplier serving, BooleanSupplier ready) {
      this.serviceName = serviceName;
      this.serving = serving;
      this.ready = ready;
    }

    @Override
    public void check(
        HealthCheckRequest request, StreamObserver<HealthCheckResponse> observer) {
      String asked = request.getService();
      boolean readiness = asked.equals(READINESS);
      if (!asked.isEmpty() && !asked.equals(LIVENESS) && !asked.equals(serviceName)
          && !readiness) {
        observer.onError(
            Status.NOT_FOUND.withDescription("unknown service \"" + asked + "\"").asException());
        return;
      }
      boolean up = serving.getAsBoolean() && (!readiness || ready.getAsBoolean());
      ServingStatus status = up ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
      observer.onNext(HealthCheckResponse.newBuilder().setStatus(status).build());
      observer.onCompleted();
    }
  }
}
