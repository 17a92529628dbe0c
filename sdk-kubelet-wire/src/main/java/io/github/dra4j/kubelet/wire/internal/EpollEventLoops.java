package io.github.dra4j.kubelet.wire.internal;

import io.github.dra4j.core.thread.DaemonThreads;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The Netty epoll event loop threads one plugin instance uses for all its sockets.
 *
 * <p>Owned by the plugin that created it; closed by that plugin on shutdown. gRPC does not shut
 * down event loop groups it was given, and their threads would otherwise keep the JVM alive.
 */
public final class EpollEventLoops implements AutoCloseable {

  private final EventLoopGroup group;

  /**
   * Creates the event loop group.
   *
   * @param threads number of event loop threads
   * @param namePrefix prefix of the thread names, for thread dumps
   * @throws IllegalStateException if the native epoll transport is unavailable on this platform
   */
  public EpollEventLoops(int threads, String namePrefix) {
    this(threads, new DaemonThreads(namePrefix));
  }

  /**
   * Creates the event loop group with threads of a factory's making.
   *
   * @param threads number of event loop threads
   * @param threadFactory makes the threads: named for thread dumps, daemon, perhaps with an
   *     uncaught-exception handler of the owner's
   * @throws IllegalStateException if the native epoll transport is unavailable on this platform
   */
  public EpollEventLoops(int threads, ThreadFactory threadFactory) {
    if (!Epoll.isAvailable()) {
      throw new IllegalStateException(
          "the Netty epoll transport is unavailable (Linux x86_64 or aarch64 is required): "
              + Epoll.unavailabilityCause(),
          Epoll.unavailabilityCause());
    }
    this.group = new MultiThreadIoEventLoopGroup(
        threads, threadFactory, EpollIoHandler.newFactory());
  }

  /**
   * The group to hand to Netty server and client builders.
   *
   * @return the event loop group
   */
  public EventLoopGroup group() {
    return group;
  }

  /** Shuts the threads down and waits briefly for them to finish. */
  @Override
  public void close() {
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
