package io.github.dra4j.core.http;

import io.github.dra4j.core.option.OptionChecks;
import io.github.dra4j.core.thread.DaemonThreads;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.Channel;
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
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ImmediateExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
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

  private SmallHttpServer(Builder builder) throws IOException {
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
            channel.pipeline().addLast("connection", connection);
          }
        });
    try {
      this.listening = bootstrap.bind(builder.address).syncUninterruptibly().channel();
    } catch (RuntimeException e) {
      group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw e;
    }
    listening.closeFuture().addListener(done -> {
      if (!closing) {
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
  public static Builder builder(String name, Handler handler) {
    return new Builder(name, handler);
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
    for (HttpConnection connection : connections.snapshot()) {
      connection.evict();
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

  /** Configures a server; not thread-safe. */
  public static final class Builder {

    private final String name;
    private final Handler handler;
    private InetSocketAddress address = new InetSocketAddress(0);
    private Supplier<SSLEngine> tls;
    private int threads = 1;
    private int backlog = 128;
    private int maxConnections = 512;
    private Duration requestTimeout = Duration.ofSeconds(10);
    private Duration idleTimeout = Duration.ofSeconds(90);
    private int maxHeaderBytes = 16 * 1024;
    private int maxBodyBytes = 1024 * 1024;
    private long discardBytes = 16L * 1024 * 1024;
    private long bodyBudget = 16L * 1024 * 1024;
    private BiConsumer<String, Throwable> onFatal = FatalErrors::exitProcess;

    private Builder(String name, Handler handler) {
      this.name = Objects.requireNonNull(name, "name");
      this.handler = Objects.requireNonNull(handler, "handler");
    }

    /**
     * Where to listen; default every address, a free port.
     *
     * @param address the address
     * @return this builder
     */
    public Builder address(InetSocketAddress address) {
      this.address = Objects.requireNonNull(address, "address");
      return this;
    }

    /**
     * Serves HTTPS: each connection gets a new server-mode engine from the supplier.
     *
     * @param engines makes the TLS engine of a connection
     * @return this builder
     */
    public Builder tls(Supplier<SSLEngine> engines) {
      this.tls = Objects.requireNonNull(engines, "engines");
      return this;
    }

    /**
     * The event loop threads that accept, read and write; default 1.
     *
     * @param threads at least 1
     * @return this builder
     */
    public Builder threads(int threads) {
      this.threads = OptionChecks.atLeast(threads, 1, "threads");
      return this;
    }

    /**
     * How many connections may wait to be accepted; default 128.
     *
     * @param backlog at least 1
     * @return this builder
     */
    public Builder backlog(int backlog) {
      this.backlog = OptionChecks.atLeast(backlog, 1, "backlog");
      return this;
    }

    /**
     * The most connections open at once; default 512.
     *
     * @param maxConnections at least 1
     * @return this builder
     */
    public Builder maxConnections(int maxConnections) {
      this.maxConnections = OptionChecks.atLeast(maxConnections, 1, "maxConnections");
      return this;
    }

    /**
     * How long a request may take, from its first byte (for the first request of a connection,
     * from the connection's start, TLS handshake included) to its answer; default 10 s.
     *
     * @param requestTimeout positive
     * @return this builder
     */
    public Builder requestTimeout(Duration requestTimeout) {
      this.requestTimeout = OptionChecks.positive(requestTimeout, "requestTimeout");
      return this;
    }

    /**
     * How long a connection may wait for its next request; default 90 s.
     *
     * @param idleTimeout positive
     * @return this builder
     */
    public Builder idleTimeout(Duration idleTimeout) {
      this.idleTimeout = OptionChecks.positive(idleTimeout, "idleTimeout");
      return this;
    }

    /**
     * The most bytes of a request line and of all headers; default 16 KiB. Beyond, 431.
     *
     * @param maxHeaderBytes at least 1024
     * @return this builder
     */
    public Builder maxHeaderBytes(int maxHeaderBytes) {
      this.maxHeaderBytes = OptionChecks.atLeast(maxHeaderBytes, 1024, "maxHeaderBytes");
      return this;
    }

    /**
     * The largest request body; default 1 MiB. Beyond, 413.
     *
     * @param maxBodyBytes zero or more
     * @return this builder
     */
    public Builder maxBodyBytes(int maxBodyBytes) {
      this.maxBodyBytes = OptionChecks.atLeast(maxBodyBytes, 0, "maxBodyBytes");
      return this;
    }

    /**
     * How much of a body over the limit is read and dropped before the connection is closed;
     * default 16 MiB (at least the body limit).
     *
     * @param discardBytes zero or more
     * @return this builder
     */
    public Builder discardBytes(long discardBytes) {
      if (discardBytes < 0) {
        throw new IllegalArgumentException("discardBytes must be at least 0, got "
            + discardBytes);
      }
      this.discardBytes = discardBytes;
      return this;
    }

    /**
     * The most bytes of request bodies held in memory at once, over all connections; default
     * 16 MiB. A request beyond it gets 503 with {@code Retry-After: 1}.
     *
     * @param bodyBudget at least 1
     * @return this builder
     */
    public Builder bodyBudget(long bodyBudget) {
      if (bodyBudget < 1) {
        throw new IllegalArgumentException("bodyBudget must be at least 1, got " + bodyBudget);
      }
      this.bodyBudget = bodyBudget;
      return this;
    }

    /**
     * What happens on a fatal failure (an {@link Error} on a connection, the listening socket
     * closed under the running server); default {@link FatalErrors#exitProcess}. Called once,
     * on a server thread, with what happened and its cause (may be null).
     *
     * @param onFatal the reaction
     * @return this builder
     */
    public Builder onFatal(BiConsumer<String, Throwable> onFatal) {
      this.onFatal = Objects.requireNonNull(onFatal, "onFatal");
      return this;
    }

    /**
     * Binds the port and starts serving.
     *
     * @return the running server
     * @throws IOException if the port cannot be bound
     */
    public SmallHttpServer start() throws IOException {
      return new SmallHttpServer(this);
    }
  }
}
