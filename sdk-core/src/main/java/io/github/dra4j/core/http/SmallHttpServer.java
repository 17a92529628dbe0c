package io.github.dra4j.core.http;

import io.github.dra4j.core.thread.DaemonThreads;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ImmediateExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The small HTTP/1.1 server under dra4j's admission webhook and metrics endpoint, on Netty:
 * non-blocking, so a client that stalls in its TLS handshake, its headers or its body holds no
 * thread, only a connection, and every connection has a deadline.
 *
 * <ul>
 *   <li>Time: from a connection's start, and from the first byte of each later request, the
 *       request must be read and answered within the request timeout; between requests a
 *       connection may wait the idle timeout. Past either, the connection is closed.
 *   <li>Connections: at most a set number; a new one beyond it takes the place of the oldest
 *       one that is not being answered.
 *   <li>Size: the request line and headers, and each body, have a limit. A body declared larger
 *       is answered 413 before it is read; what follows is read and dropped up to the discard
 *       limit (so the client, which sends its whole body first, sees the answer), and the
 *       connection is closed beyond it. All bodies held in memory at once have a budget; a
 *       request beyond it is answered 503.
 *   <li>Failure: an {@link Error} on a connection, or the listening socket closing while the
 *       server runs, is fatal: the fatal handler is called once (by default {@link
 *       FatalErrors#exitProcess}), because a server that no longer accepts connections or has
 *       run out of memory must not live on as if it served.
 * </ul>
 *
 * <p>A request is handed to the {@link Handler} whole, on the connection's event loop; the
 * handler answers at once or hands the request to its own threads and answers later. Reading
 * stops on a connection while its request is being answered. Thread-safe.
 */
public final class SmallHttpServer implements AutoCloseable {

  /** The content type of plain-text answers. */
  public static final String TEXT = "text/plain; charset=utf-8";

  private static final Logger LOG = LoggerFactory.getLogger(SmallHttpServer.class);

  /** What answers requests. */
  public interface Handler {

    /**
     * Whether a request gets its body; without, the body is read and dropped and the handler
     * gets an empty one. Called on the event loop.
     *
     * @param method the request method
     * @param path the request path
     * @return true to read the body (within the limits)
     */
    default boolean wantsBody(String method, String path) {
      return true;
    }

    /**
     * Handles a complete request. Called on the connection's event loop: must not block.
     *
     * @param exchange the request and the way to answer it
     */
    void handle(SmallHttpExchange exchange);

    /**
     * A request whose head was read lost its connection before its body was complete (its time
     * ran out or the client went away). Called on the event loop.
     *
     * @param method the request method
     * @param path the request path
     */
    default void abandoned(String method, String path) {}
  }

  /** The limits and names a server runs with. */
  record Settings(String name, int maxConnections, long requestTimeoutNanos,
      long idleTimeoutNanos, int maxHeaderBytes, int maxBodyBytes, long discardBytes,
      long bodyBudget) {}

  private final Settings settings;
  private final EventLoopGroup group;
  private final Channel listening;
  private final Connections connections;
  private final BiConsumer<String, Throwable> onFatal;
  private final AtomicBoolean fatal = new AtomicBoolean();
  private volatile boolean closing;
  /** Set by {@link #stopAccepting()}: the listening socket closes on purpose. */
  private volatile boolean notAccepting;

  SmallHttpServer(SmallHttpServerBuilder builder) throws IOException {
    this.settings = new Settings(builder.name, builder.maxConnections,
        builder.requestTimeout.toNanos(), builder.idleTimeout.toNanos(), builder.maxHeaderBytes,
        builder.maxBodyBytes, Math.max(builder.maxBodyBytes, builder.discardBytes),
        builder.bodyBudget);
    this.onFatal = builder.onFatal;
    this.connections = new Connections(builder.name, builder.maxConnections, builder.bodyBudget);
    this.group = new MultiThreadIoEventLoopGroup(builder.threads,
        new DaemonThreads(builder.name), NioIoHandler.newFactory());
    Handler handler = builder.handler;
    Supplier<SSLEngine> tls = builder.tls;
    HttpDecoderConfig decoder = new HttpDecoderConfig()
        .setMaxInitialLineLength(Math.min(8192, builder.maxHeaderBytes))
        .setMaxHeaderSize(builder.maxHeaderBytes)
        .setMaxChunkSize(64 * 1024);
    UnpooledByteBufAllocator allocator = new UnpooledByteBufAllocator(false);
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, builder.backlog)
        .option(ChannelOption.ALLOCATOR, allocator)
        .handler(new ListeningHandler())
        .childOption(ChannelOption.ALLOCATOR, allocator)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            HttpConnection connection = new HttpConnection(SmallHttpServer.this, settings,
                connections, handler);
            channel.pipeline().addLast("activity", new Activity(connection));
            if (tls != null) {
              SslHandler ssl = new SslHandler(tls.get(), ImmediateExecutor.INSTANCE);
              ssl.setHandshakeTimeout(settings.requestTimeoutNanos(), TimeUnit.NANOSECONDS);
              channel.pipeline().addLast("tls", ssl);
            }
            channel.pipeline().addLast("http", new HttpServerCodec(decoder));
            // curl and others wait for "100 Continue" before they send a larger body.
            channel.pipeline().addLast("continue", new HttpServerExpectContinueHandler());
            channel.pipeline().addLast("connection", connection);
          }
        });
    try {
      this.listening = bootstrap.bind(builder.address).syncUninterruptibly().channel();
    } catch (RuntimeException e) {
      // Nothing was bound, so there is nothing to wait for; the bind's failure is what to report.
      var unused = group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw e;
    }
    listening.closeFuture().addListener(done -> {
      if (!closing && !notAccepting) {
        fatal("the listening socket closed while the server runs, so it accepts no more "
            + "connections", done.cause());
      }
    });
    group.terminationFuture().addListener(done -> {
      if (!closing) {
        fatal("the server's event loop ended while the server runs", done.cause());
      }
    });
  }

  /**
   * Starts configuring a server.
   *
   * @param name names its threads and its log lines, such as {@code dra4j-metrics}
   * @param handler answers the requests
   * @return a builder with the defaults
   */
  public static SmallHttpServerBuilder builder(String name, Handler handler) {
    return new SmallHttpServerBuilder(name, handler);
  }

  /**
   * The bound port, useful after asking for port 0.
   *
   * @return the TCP port
   */
  public int port() {
    return ((InetSocketAddress) listening.localAddress()).getPort();
  }

  /**
   * How many connections are open now.
   *
   * @return the count
   */
  public int openConnections() {
    return connections.size();
  }

  /**
   * How many connections were closed to make room for new ones since the start.
   *
   * @return the count
   */
  public long evictedConnections() {
    return connections.evicted();
  }

  /**
   * How many bytes of request bodies are held in memory now.
   *
   * @return the bytes
   */
  public long bufferedBodyBytes() {
    return connections.buffered();
  }

  /** The listening socket's channel, for the tests that close it under the server. */
  Channel listeningChannel() {
    return listening;
  }

  /**
   * Stops accepting connections, for a graceful stop: the listening socket closes, so a new
   * connection is refused, while the open ones go on being read and answered until {@link
   * #close()}. Idempotent; returns once the socket is closed.
   */
  public void stopAccepting() {
    notAccepting = true;
    listening.close().syncUninterruptibly();
  }

  /** Stops accepting, closes every connection and the event loop; idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (closing) {
        return;
      }
      closing = true;
    }
    listening.close().syncUninterruptibly();
    // Answers handed over before the stop go out before their connections close.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    List<ChannelFuture> closed = new ArrayList<>();
    for (HttpConnection connection : connections.snapshot()) {
      try {
        ChannelFuture future = connection.closeAfterWrites();
        if (future != null) {
          closed.add(future);
        }
      } catch (RejectedExecutionException e) {
        // its event loop already stopped
      }
    }
    for (ChannelFuture future : closed) {
      future.awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()),
          TimeUnit.NANOSECONDS);
    }
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Calls the fatal handler, once. */
  void fatal(String what, Throwable cause) {
    if (closing || !fatal.compareAndSet(false, true)) {
      return;
    }
    LOG.error("{}: fatal: {}", settings.name(), what, cause);
    onFatal.accept(settings.name() + ": " + what, cause);
  }

  /**
   * The {@link Error} a failure is or was caused by, such as an {@link OutOfMemoryError} that a
   * decoder wrapped.
   *
   * @param cause the failure
   * @return the error, or null if none
   */
  static Error errorIn(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof Error error) {
        return error;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  /** Watches the listening socket: an error while accepting is fatal. */
  private final class ListeningHandler extends ChannelInboundHandlerAdapter {
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Error error = errorIn(cause);
      if (error != null) {
        fatal("an error while accepting connections", error);
      } else {
        // Such as too many open files: Netty pauses accepting for a second and goes on.
        LOG.warn("{}: accepting a connection failed: {}", settings.name(), cause.toString());
      }
    }
  }

  /** The front of a connection's pipeline: tells the connection that bytes arrived. */
  private static final class Activity extends ChannelInboundHandlerAdapter {
    private final HttpConnection connection;

    Activity(HttpConnection connection) {
      this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      connection.bytesArrived();
      ctx.fireChannelRead(msg);
    }
  }
}
