package io.github.dra4j.kubeletplugin.testsupport;

import io.github.dra4j.kubeletplugin.internal.socket.SocketProbe;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubelet.wire.dra.v1.DRAPluginGrpc;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodePrepareResourcesResponse;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesRequest;
import io.github.dra4j.kubelet.wire.dra.v1.NodeUnprepareResourcesResponse;
import io.github.dra4j.kubelet.wire.registration.v1.InfoRequest;
import io.github.dra4j.kubelet.wire.registration.v1.PluginInfo;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationGrpc;
import io.github.dra4j.kubelet.wire.registration.v1.RegistrationStatus;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Plays the kubelet's side of the plugin protocol over real Unix sockets, with the kubelet's
 * deadlines: discovers registration sockets in a directory (ignoring dot files and non-sockets),
 * calls GetInfo (1 s) and NotifyRegistrationStatus (5 s), then prepares and unprepares claims on
 * the advertised endpoint (45 s). Owns its channels and event loop; close it.
 */
public final class TestKubelet implements AutoCloseable {

  private final EventLoopGroup group =
      new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
  private final List<ManagedChannel> channels = new ArrayList<>();

  /**
   * Registration sockets in a directory, as the kubelet's watcher sees them.
   *
   * @param directory the registry directory
   * @return socket files whose names do not start with a dot
   * @throws IOException if the directory cannot be read
   */
  public static List<Path> discover(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(SocketProbe::isSocketFile)
          .sorted()
          .toList();
    }
  }

  /**
   * Opens a channel to a socket, sending {@code localhost} as authority like grpc-go.
   *
   * @param socket the socket path
   * @return a channel owned by this kubelet
   */
  public ManagedChannel channel(Path socket) {
    ManagedChannel channel =
        NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
            .eventLoopGroup(group)
            .channelType(EpollDomainSocketChannel.class)
            .overrideAuthority("localhost")
            .withOption(ChannelOption.SO_KEEPALIVE, null)
            .usePlaintext()
            .build();
    channels.add(channel);
    return channel;
  }

  /**
   * GetInfo with the kubelet's 1 s deadline.
   *
   * @param registrationSocket the registration socket
   * @return the plugin's info
   */
  public PluginInfo getInfo(Path registrationSocket) {
    return RegistrationGrpc.newBlockingStub(channel(registrationSocket))
        .withDeadlineAfter(1, TimeUnit.SECONDS)
        .getInfo(InfoRequest.getDefaultInstance());
  }

  /**
   * NotifyRegistrationStatus with the kubelet's 5 s deadline.
   *
   * @param registrationSocket the registration socket
   * @param registered the verdict
   * @param error the reason when not registered
   */
  public void notify(Path registrationSocket, boolean registered, String error) {
    RegistrationGrpc.newBlockingStub(channel(registrationSocket))
        .withDeadlineAfter(5, TimeUnit.SECONDS)
        .notifyRegistrationStatus(
            RegistrationStatus.newBuilder()
                .setPluginRegistered(registered)
                .setError(error)
                .build());
  }

  /**
   * A v1 stub on the DRA endpoint with the kubelet's 45 s deadline.
   *
   * @param endpoint the DRA socket
   * @return a blocking stub
   */
  public DRAPluginGrpc.DRAPluginBlockingStub v1(Path endpoint) {
    return DRAPluginGrpc.newBlockingStub(channel(endpoint)).withDeadlineAfter(45, TimeUnit.SECONDS);
  }

  /**
   * A v1beta1 stub on the DRA endpoint with the kubelet's 45 s deadline.
   *
   * @param endpoint the DRA socket
   * @return a blocking stub
   */
  public io.github.dra4j.kubelet.wire.dra.v1beta1.DRAPluginGrpc.DRAPluginBlockingStub
      v1beta1(Path endpoint) {
    return io.github.dra4j.kubelet.wire.dra.v1beta1.DRAPluginGrpc.newBlockingStub(
            channel(endpoint))
        .withDeadlineAfter(45, TimeUnit.SECONDS);
  }

  /**
   * Prepares claims over v1.
   *
   * @param endpoint the DRA socket
   * @param claims the claims
   * @return the answer
   */
  public NodePrepareResourcesResponse prepare(Path endpoint, Claim... claims) {
    return v1(endpoint).nodePrepareResources(
        NodePrepareResourcesRequest.newBuilder().addAllClaims(List.of(claims)).build());
  }

  /**
   * Unprepares claims over v1.
   *
   * @param endpoint the DRA socket
   * @param claims the claims
   * @return the answer
   */
  public NodeUnprepareResourcesResponse unprepare(Path endpoint, Claim... claims) {
    return v1(endpoint).nodeUnprepareResources(
        NodeUnprepareResourcesRequest.newBuilder().addAllClaims(List.of(claims)).build());
  }

  /**
   * A claim reference as the kubelet sends it.
   *
   * @param namespace namespace
   * @param name name
   * @param uid UID
   * @return the wire claim
   */
  public static Claim claim(String namespace, String name, String uid) {
    return Claim.newBuilder().setNamespace(namespace).setName(name).setUid(uid).build();
  }

  @Override
  public void close() {
    for (ManagedChannel channel : channels) {
      channel.shutdownNow();
    }
    for (ManagedChannel channel : channels) {
      try {
        channel.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
