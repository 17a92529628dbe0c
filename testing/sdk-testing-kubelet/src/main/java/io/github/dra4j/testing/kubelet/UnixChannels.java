package io.github.dra4j.testing.kubelet;

import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.kubelet.wire.internal.EpollEventLoops;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Opens gRPC client channels to Unix sockets the way the kubelet's grpc-go client does: plaintext,
 * authority {@code localhost}, no keepalive, connecting at once and never going idle.
 *
 * <p>Owns the epoll event loop and the callback executor shared by all channels of one fake
 * kubelet; {@link #close()} stops them. The channels themselves belong to whoever opened them and
 * must be shut down before this object is closed.
 */
final class UnixChannels implements AutoCloseable {

  /** grpc-java disables idle mode for timeouts above 30 days; the kubelet's channels never idle. */
  private static final long NEVER_IDLE_DAYS = 365;

  private final EpollEventLoops loops;
  private final ExecutorService callbacks;

  UnixChannels(String threadPrefix) {
    this.loops = new EpollEventLoops(2, threadPrefix + "-io");
    this.callbacks = Executors.newCachedThreadPool(new DaemonThreads(threadPrefix + "-grpc"));
  }

  /**
   * Opens a channel and starts connecting.
   *
   * @param socket the socket path
   * @return a channel; the caller shuts it down
   */
  ManagedChannel open(String socket) {
    ManagedChannel channel = NettyChannelBuilder
        .forAddress(new DomainSocketAddress(socket))
        .eventLoopGroup(loops.group())
        .channelType(EpollDomainSocketChannel.class)
        .executor(callbacks)
        .overrideAuthority("localhost")
        .withOption(ChannelOption.SO_KEEPALIVE, null)
        .idleTimeout(NEVER_IDLE_DAYS, TimeUnit.DAYS)
        .usePlaintext()
        .build();
    channel.getState(true);
    return channel;
  }

  /**
   * Waits until a channel is connected, like grpc-go's blocking dial.
   *
   * @param channel the channel
   * @param timeout how long to wait
   * @return true if connected in time
   * @throws InterruptedException if interrupted while waiting
   */
  static boolean awaitReady(ManagedChannel channel, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      ConnectivityState state = channel.getState(true);
      if (state == ConnectivityState.READY) {
        return true;
      }
      if (state == ConnectivityState.SHUTDOWN) {
        return false;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      CountDownLatch changed = new CountDownLatch(1);
      channel.notifyWhenStateChanged(state, changed::countDown);
      changed.await(left, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * Shuts a channel down and waits briefly for it to finish.
   *
   * @param channel the channel, may be null
   */
  static void shutdown(ManagedChannel channel) {
    if (channel == null) {
      return;
    }
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    callbacks.shutdownNow();
    loops.close();
  }
}
