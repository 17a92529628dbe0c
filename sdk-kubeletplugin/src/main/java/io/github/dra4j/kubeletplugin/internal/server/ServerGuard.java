package io.github.dra4j.kubeletplugin.internal.server;

import io.github.dra4j.core.metrics.MetricNames;
import io.github.dra4j.kubeletplugin.ServerLimits;
import io.grpc.netty.NettyServerBuilder;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ServerChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Applies a {@link ServerLimits} to one gRPC server: grpc-java's own limits (calls per
 * connection, message and metadata size, flow-control window, idle and age, keepalive and reset
 * policy), and those grpc-java does not have, which work on the Netty channels themselves:
 *
 * <ul>
 *   <li><b>Connections</b>: the listening channel's pipeline holds a handler that sees every
 *       accepted connection before the server does; over {@code maxConnections} open ones it is
 *       closed at once, before the server spends anything on it.
 *   <li><b>Handshake</b>: a connection that has not sent the HTTP/2 preface and the header of its
 *       settings frame within {@code handshakeTimeout} is closed, counted and logged; grpc-java's
 *       own handshake deadline, a second later, stays as a second line.
 *   <li><b>Requests still arriving</b>: {@link PendingRequestBudget}.
 *   <li><b>JVM errors</b>: an error reaching the start of a connection's pipeline (reading the
 *       socket) goes to {@link FatalErrors}.
 * </ul>
 *
 * <p>Owned by the server it guards; thread-safe (connections are accepted on the listening
 * channel's event loop and end on theirs).
 */
public final class ServerGuard {

  /** The HTTP/2 client preface (24 bytes) and the 9-byte header of the SETTINGS frame after it. */
  static final int HANDSHAKE_BYTES = 24 + 9;

  private final String description;
  private final ServerLimits limits;
  private final FatalErrors fatal;
  private final Set<Channel> open = ConcurrentHashMap.newKeySet();
  private final Refusals overLimit;
  private final Refusals noHandshake;
  private final PendingRequestBudget pendingRequests;

  /**
   * Creates the guard and registers its meters.
   *
   * @param server the {@value MetricNames#SERVER} tag: {@code dra}, {@code registration} or
   *     {@code liveness}
   * @param description what the log says, e.g. {@code DRA socket /var/lib/kubelet/...}
   * @param limits the limits to apply
   * @param fatal where JVM errors go
   * @param registry where the meters go
   * @param driverName the {@value MetricNames#DRIVER_NAME} tag
   */
  public ServerGuard(String server, String description, ServerLimits limits, FatalErrors fatal,
      MeterRegistry registry, String driverName) {
    this.description = description;
    this.limits = limits;
    this.fatal = fatal;
    this.overLimit = new Refusals(registry, driverName, server, "connections");
    this.noHandshake = new Refusals(registry, driverName, server, "handshake");
    this.pendingRequests = new PendingRequestBudget(description, limits.maxPendingRequestBytes(),
        new Refusals(registry, driverName, server, "pending_requests"));
    Gauge.builder(MetricNames.PLUGIN_CONNECTIONS, open, Set::size)
        .description("Connections the plugin's gRPC servers hold open, by server")
        .tag(MetricNames.DRIVER_NAME, driverName)
        .tag(MetricNames.SERVER, server)
        .register(registry);
  }

  /**
   * Sets the limits on a server builder, with the channels it listens on made by {@code
   * channels}; call before adding services.
   *
   * @param builder a Netty server builder whose event loops are set
   * @param channels makes the listening channel, e.g. {@code EpollServerSocketChannel::new}
   * @return the builder
   */
  public NettyServerBuilder apply(NettyServerBuilder builder,
      Supplier<? extends ServerChannel> channels) {
    builder.channelFactory(listening(channels))
        .maxConcurrentCallsPerConnection(limits.maxCallsPerConnection())
        .maxInboundMessageSize(limits.maxMessageBytes())
        .maxInboundMetadataSize(limits.maxMetadataBytes())
        .flowControlWindow(limits.flowControlWindowBytes())
        // grpc-java's own handshake deadline, a second later than this guard's, which counts
        // and logs the connections it closes
        .handshakeTimeout(limits.handshakeTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS)
        // Pings: the kubelet sends none; a client that pings more often than every 5 minutes,
        // or without calls, is told to go away (grpc-java's default policy, stated here).
        .permitKeepAliveTime(5, TimeUnit.MINUTES)
        .permitKeepAliveWithoutCalls(false)
        // Streams opened and reset at once ("rapid reset") cost the server without counting
        // against the calls per connection: 200 resets in 10 s end the connection.
        .maxRstFramesPerWindow(200, 10)
        .addStreamTracerFactory(pendingRequests);
    if (!limits.maxConnectionIdle().isZero()) {
      builder.maxConnectionIdle(limits.maxConnectionIdle().toMillis(), TimeUnit.MILLISECONDS);
    }
    if (!limits.maxConnectionAge().isZero()) {
      builder.maxConnectionAge(limits.maxConnectionAge().toMillis(), TimeUnit.MILLISECONDS)
          .maxConnectionAgeGrace(10, TimeUnit.SECONDS);
    }
    return builder;
  }

  /**
   * The connections open now.
   *
   * @return at most {@code maxConnections}
   */
  public int openConnections() {
    return open.size();
  }

  private ChannelFactory<ServerChannel> listening(Supplier<? extends ServerChannel> channels) {
    return () -> {
      ServerChannel channel = channels.get();
      // Before the acceptor that the server adds when it binds: sees each connection first.
      channel.pipeline().addLast("dra4j-connection-limit", new Admission());
      return channel;
    };
  }

  /** Whether a new connection may be served; if so, it is counted until it closes. */
  private boolean admit(Channel connection) {
    if (open.size() >= limits.maxConnections()) {
      // A connection that failed before it was ever served is not counted any more.
      open.removeIf(channel -> !channel.isOpen());
    }
    if (open.size() >= limits.maxConnections()) {
      return false;
    }
    open.add(connection);
    connection.closeFuture().addListener(closed -> open.remove(connection));
    return true;
  }

  /** In the listening channel: each message read is an accepted connection. */
  private final class Admission extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      Channel connection = (Channel) message;
      if (!admit(connection)) {
        connection.unsafe().closeForcibly(); // not registered yet: nothing else to release
        overLimit.refused(() -> description + ": refused a connection: " + open.size()
            + " are open, the most allowed (ServerLimits.maxConnections "
            + limits.maxConnections() + ")");
        return;
      }
      connection.pipeline().addLast("dra4j-connection-watch", new ConnectionWatch());
      ctx.fireChannelRead(connection);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      fatal.offer(cause, description + ": accepting a connection failed");
      ctx.fireExceptionCaught(cause);
    }
  }

  /** First in each connection's pipeline: the handshake deadline and JVM errors from reads. */
  private final class ConnectionWatch extends ChannelInboundHandlerAdapter {
    private long bytesRead;
    private Future<?> deadline;

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      deadline = ctx.executor().schedule(() -> {
        if (bytesRead < HANDSHAKE_BYTES && ctx.channel().isOpen()) {
          noHandshake.refused(() -> description + ": closed a connection that sent "
              + bytesRead + " bytes of the HTTP/2 handshake in "
              + limits.handshakeTimeout().toMillis() + " ms (ServerLimits.handshakeTimeout)");
          // Netty frees the connection whatever the close's outcome; nothing waits for it.
          var unused = ctx.close();
        }
      }, limits.handshakeTimeout().toNanos(), TimeUnit.NANOSECONDS);
      ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      if (deadline != null && message instanceof ByteBuf bytes) {
        bytesRead += bytes.readableBytes();
        if (bytesRead >= HANDSHAKE_BYTES) {
          deadline.cancel(false);
          deadline = null;
        }
      }
      ctx.fireChannelRead(message);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (deadline != null) {
        deadline.cancel(false);
        deadline = null;
      }
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      fatal.offer(cause, description + ": reading a connection failed");
      ctx.fireExceptionCaught(cause);
    }
  }
}
