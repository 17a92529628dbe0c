package io.github.dra4j.benchmarks.floor;

import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.Device;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourceResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The floor a JVM can reach serving DRA: grpc-java over Netty's epoll transport on a Unix socket,
 * one event loop that also runs the handlers, answering {@code NodePrepareResources} and {@code
 * NodeUnprepareResources} (v1) from memory, as the Go program {@code floor} does. No API client,
 * no JSON, no logging, no metrics, no files: what is left is the JVM, gRPC, Netty and protobuf.
 *
 * <p>{@code GpuDriverBenchmark -Dfloor=true} runs it with the driver's JVM options to split the
 * driver's resident memory into what any JVM gRPC server of this shape takes and what the driver
 * adds. Run by the benchmark: {@code java <options> -cp <class path> ...JvmFloorServer <socket>};
 * it creates the socket, and exits on SIGTERM.
 */
public final class JvmFloorServer extends DRAPluginGrpc.DRAPluginImplBase {

  private JvmFloorServer() {}

  /**
   * Serves until the process is stopped.
   *
   * @param args the socket path
   * @throws Exception if the socket cannot be served
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: JvmFloorServer <socket path>");
    }
    EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
    Server server = start(Path.of(args[0]), loop);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.shutdownNow();
      // The JVM is exiting; nothing is left to wait for the event loop.
      var unused = loop.shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }));
    server.awaitTermination();
  }

  /**
   * Serves the floor on a socket, replacing a file left there.
   *
   * @param socket the socket path
   * @param loop the one event loop, which accepts, reads and answers
   * @return the started server
   * @throws IOException if the socket cannot be served
   */
  static Server start(Path socket, EventLoopGroup loop) throws IOException {
    Files.deleteIfExists(socket);
    return NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
        .channelType(EpollServerDomainSocketChannel.class)
        .bossEventLoopGroup(loop)
        .workerEventLoopGroup(loop)
        .directExecutor()
        .withChildOption(ChannelOption.SO_KEEPALIVE, null) // not an option of a Unix socket
        .addService(new JvmFloorServer())
        .build()
        .start();
  }

  @Override
  public void nodePrepareResources(NodePrepareResourcesRequest request,
      StreamObserver<NodePrepareResourcesResponse> response) {
    NodePrepareResourcesResponse.Builder answer = NodePrepareResourcesResponse.newBuilder();
    for (Claim claim : request.getClaimsList()) {
      answer.putClaims(claim.getUid(), NodePrepareResourceResponse.newBuilder()
          .addDevices(Device.newBuilder().addRequestNames("gpu").setPoolName("node1")
              .setDeviceName("gpu-0").addCdiDeviceIds("example.com/gpu=" + claim.getUid()
                  + "-gpu-0"))
          .build());
    }
    response.onNext(answer.build());
    response.onCompleted();
  }

  @Override
  public void nodeUnprepareResources(NodeUnprepareResourcesRequest request,
      StreamObserver<NodeUnprepareResourcesResponse> response) {
    NodeUnprepareResourcesResponse.Builder answer = NodeUnprepareResourcesResponse.newBuilder();
    for (Claim claim : request.getClaimsList()) {
      answer.putClaims(claim.getUid(), NodeUnprepareResourceResponse.getDefaultInstance());
    }
    response.onNext(answer.build());
    response.onCompleted();
  }
}
