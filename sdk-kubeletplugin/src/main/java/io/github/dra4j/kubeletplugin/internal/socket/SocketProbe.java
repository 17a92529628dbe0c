package io.github.dra4j.kubeletplugin.internal.socket;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Tells whether a process still accepts connections on a Unix socket file.
 *
 * <p>Binding with Netty's native transport silently unlinks whatever is at the path, so a second
 * process could steal the socket of a live plugin. Callers probe first and only replace files
 * nobody answers on. Stateless apart from the event loop group it borrows.
 */
public final class SocketProbe {

  private final EventLoopGroup group;
  private final Duration timeout;

  /**
   * Creates a probe.
   *
   * @param group event loops to connect with (borrowed, not closed)
   * @param timeout how long a connection attempt may take
   */
  public SocketProbe(EventLoopGroup group, Duration timeout) {
    this.group = group;
    this.timeout = timeout;
  }

  /**
   * Whether the path is a socket file on which a process accepts connections.
   *
   * @param path the socket path
   * @return true if a connection succeeded; false for a missing file, a non-socket file, or a
   *     socket nobody listens on (refused or timed out)
   */
  public boolean isServed(Path path) {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS) || !isSocketFile(path)) {
      return false;
    }
    Bootstrap bootstrap = new Bootstrap()
        .group(group)
        .channel(EpollDomainSocketChannel.class)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeout.toMillis())
        .handler(new ChannelInboundHandlerAdapter());
    ChannelFuture connect = bootstrap.connect(new DomainSocketAddress(path.toString()));
    boolean done = connect.awaitUninterruptibly(timeout.toMillis() + 500);
    boolean served = done && connect.isSuccess();
    Channel channel = connect.channel();
    channel.close().awaitUninterruptibly(1000);
    return served;
  }

  /**
   * Whether the file at the path is a Unix domain socket (not following links).
   *
   * @param path a path that exists
   * @return true for a socket file
   */
  public static boolean isSocketFile(Path path) {
    try {
      // Not a regular file, directory or symlink, and "other": sockets, FIFOs and devices.
      // Mode bits tell them apart: S_IFSOCK is 0140000.
      Object mode = Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      return mode instanceof Integer m && (m & 0170000) == 0140000;
    } catch (java.io.IOException | UnsupportedOperationException e) {
      return false;
    }
  }
}
