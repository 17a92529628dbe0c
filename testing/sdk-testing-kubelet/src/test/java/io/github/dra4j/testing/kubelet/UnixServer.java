package io.github.dra4j.testing.kubelet;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A plain gRPC server on a Unix socket for hand-made (possibly misbehaving) plugins. Owns its event
 * loop; closing it stops the server, which removes the socket file.
 */
final class UnixServer implements AutoCloseable {

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1,
      EpollIoHandler.newFactory());
  private final Server server;

  UnixServer(Path socket, BindableService... services) {
    NettyServerBuilder builder = NettyServerBuilder
        .forAddress(new DomainSocketAddress(socket.toString()))
        .channelType(EpollServerDomainSocketChannel.class)
        .bossEventLoopGroup(group)
        .workerEventLoopGroup(group)
        .withChildOption(ChannelOption.SO_KEEPALIVE, null);
    for (BindableService service : services) {
      builder.addService(service);
    }
    try {
      server = builder.build().start();
    } catch (IOException e) {
      // The server did not start; its failure is what to report, not the group's shutdown.
      var unused = group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw new UncheckedIOException("cannot serve on " + socket, e);
    }
  }

  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
