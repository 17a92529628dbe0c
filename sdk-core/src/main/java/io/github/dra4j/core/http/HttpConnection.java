package io.github.dra4j.core.http;

import io.github.dra4j.core.logging.LogValues;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of a {@link SmallHttpServer}: reads one request at a time within the server's
 * limits, hands it to the handler whole, writes the answer, and closes the connection when a
 * deadline passes. Every method but {@link #busy()}, {@link #evict()}, {@link #isOpen()} and
 * {@link #respond} runs on the connection's event loop.
 *
 * <p>Deadlines: from the connection's start, and from the first byte of each later request, the
 * request must be read and answered within the request timeout (TLS handshake, head and body
 * included); between requests the connection may wait the idle timeout. Either way, the
 * connection is closed when its time is up.
 */
final class HttpConnection extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(HttpConnection.class);
  private static final int GROWTH = 64 * 1024;

  private enum State {
    HEAD, BODY, DISCARD, WORKING, IDLE, CLOSED
  }

  private final SmallHttpServer.Settings settings;
  private final Connections connections;
  private final SmallHttpServer.Handler handler;
  private final SmallHttpServer server;
  private volatile ChannelHandlerContext context;
  private volatile State state = State.HEAD;
  private ScheduledFuture<?> timer;
  // The request being read.
  private HttpRequest head;
  private String path;
  private boolean wantsBody;
  private byte[] body;
  private int length;
  private long reserved;
  private long discarded;
  private boolean answeredEarly;
  private boolean closeAfterAnswer;

  HttpConnection(SmallHttpServer server, SmallHttpServer.Settings settings,
      Connections connections, SmallHttpServer.Handler handler) {
    this.server = server;
    this.settings = settings;
    this.connections = connections;
    this.handler = handler;
  }

  /** Whether the connection's request is being answered, so it must not be evicted. */
  boolean busy() {
    return state == State.WORKING;
  }

  /** Closes the connection to make room for a new one. */
  void evict() {
    ChannelHandlerContext ctx = context;
    if (ctx != null) {
      close(ctx);
    }
  }

  /**
   * Closes the connection once what was written to it before has gone out: the server's stop
   * after its handler's answers were handed over.
   *
   * @return when the connection is closed, or null if it never started
   */
  io.netty.channel.ChannelFuture closeAfterWrites() {
    ChannelHandlerContext ctx = context;
    if (ctx == null) {
      return null;
    }
    ctx.channel().eventLoop().execute(() -> ctx.channel().writeAndFlush(Unpooled.EMPTY_BUFFER)
        .addListener(ChannelFutureListener.CLOSE));
    return ctx.channel().closeFuture();
  }

  boolean isOpen() {
    ChannelHandlerContext ctx = context;
    return ctx != null && ctx.channel().isActive() && state != State.CLOSED;
  }

  SocketAddress remoteAddress() {
    ChannelHandlerContext ctx = context;
    return ctx == null ? null : ctx.channel().remoteAddress();
  }

  /** The front of the pipeline saw bytes: the first byte of a new request starts its clock. */
  void bytesArrived() {
    if (state == State.IDLE) {
      state = State.HEAD;
      schedule(settings.requestTimeoutNanos());
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    context = ctx;
    if (!connections.admit(this)) {
      LOG.debug("closing a new connection from {}: {} connections are all being answered",
          ctx.channel().remoteAddress(), settings.maxConnections());
      state = State.CLOSED;
      close(ctx);
      return;
    }
    schedule(settings.requestTimeoutNanos());
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    State was = state;
    state = State.CLOSED;
    connections.remove(this);
    cancelTimer();
    releaseBody();
    if (head != null && (was == State.BODY || was == State.DISCARD) && !answeredEarly) {
      handler.abandoned(head.method().name(), path);
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (msg instanceof HttpRequest request) {
        onHead(request);
      }
      if (msg instanceof HttpContent content) {
        onContent(ctx, content);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void onHead(HttpRequest request) {
    if (state != State.HEAD && state != State.IDLE) {
      // A pipelined request while one is answered: answer the first, then close.
      closeAfterAnswer = true;
      return;
    }
    cancelIdle();
    if (request.decoderResult().isFailure()) {
      Throwable cause = request.decoderResult().cause();
      boolean tooLong = cause instanceof TooLongFrameException;
      sendNow(tooLong ? 431 : 400, tooLong ? "request line or headers over the limit of "
          + settings.maxHeaderBytes() + " bytes" : "malformed request: " + cause.getMessage());
      return;
    }
    head = request;
    path = pathOf(request.uri());
    wantsBody = handler.wantsBody(request.method().name(), path);
    length = 0;
    discarded = 0;
    answeredEarly = false;
    long declared;
    try {
      declared = HttpUtil.getContentLength(request, -1L);
    } catch (NumberFormatException e) {
      sendNow(400, "Content-Length " + LogValues.quote(
          request.headers().get(HttpHeaderNames.CONTENT_LENGTH), 40) + " is not a number");
      return;
    }
    state = State.BODY;
    if (declared > settings.maxBodyBytes()) {
      // Answered before the body is read; what follows is read and dropped so that the client,
      // which sends its whole body before it reads, sees the answer rather than a reset.
      state = State.DISCARD;
      answeredEarly = true;
      boolean farOver = declared > settings.discardBytes();
      respondNow(413, SmallHttpServer.TEXT, tooLarge(declared), Map.of(), farOver, true);
      return;
    }
    if (!wantsBody) {
      state = State.DISCARD;
      return;
    }
    if (declared > 0) {
      if (!connections.reserve(declared)) {
        busyAnswer();
        return;
      }
      reserved = declared;
      body = new byte[(int) declared];
    }
  }

  private void busyAnswer() {
    state = State.DISCARD;
    answeredEarly = true;
    respondNow(503, SmallHttpServer.TEXT, ("the server holds as many request bodies as it "
        + "may (" + settings.bodyBudget() + " bytes); try again\n")
        .getBytes(StandardCharsets.UTF_8), Map.of("Retry-After", "1"), true, true);
  }

  private void onContent(ChannelHandlerContext ctx, HttpContent content) {
    ByteBuf bytes = content.content();
    int n = bytes.readableBytes();
    if (state == State.BODY && n > 0) {
      if ((long) length + n > settings.maxBodyBytes()) {
        // A body of unknown length went over the limit: drop it and keep counting.
        discarded = length;
        releaseBody();
        state = State.DISCARD;
      } else {
        ensureCapacity(length + n);
        if (state == State.BODY) {
          bytes.readBytes(body, length, n);
          length += n;
        }
      }
    }
    if (state == State.DISCARD) {
      discarded += n;
      if (discarded > settings.discardBytes()) {
        if (!answeredEarly) {
          answeredEarly = true;
          respondNow(413, SmallHttpServer.TEXT, tooLarge(-1), Map.of(), true, true);
        } else {
          close(ctx);
        }
        return;
      }
    }
    if (content instanceof LastHttpContent) {
      onEnd(ctx);
    }
  }

  private void ensureCapacity(int needed) {
    int have = body == null ? 0 : body.length;
    if (needed <= have) {
      return;
    }
    long doubled = Math.max(2L * have, GROWTH);
    int grown = (int) Math.min(settings.maxBodyBytes(), Math.max(needed, doubled));
    if (!connections.reserve(grown - have)) {
      releaseBody();
      busyAnswer();
      return;
    }
    reserved += grown - have;
    body = body == null ? new byte[grown] : Arrays.copyOf(body, grown);
  }

  private void onEnd(ChannelHandlerContext ctx) {
    if (state == State.DISCARD) {
      if (answeredEarly) {
        finishRequest(ctx);
        return;
      }
      if (wantsBody) {
        state = State.WORKING;
        respondNow(413, SmallHttpServer.TEXT, tooLarge(discarded), Map.of(), false, false);
        return;
      }
    }
    if (state != State.BODY && state != State.DISCARD) {
      return;
    }
    byte[] bytes = body == null ? new byte[0]
        : length == body.length ? body : Arrays.copyOf(body, length);
    state = State.WORKING;
    ctx.channel().config().setAutoRead(false);
    SmallHttpExchange exchange = new SmallHttpExchange(this, head.method().name(), path,
        head.headers(), bytes);
    try {
      handler.handle(exchange);
    } catch (RuntimeException e) {
      LOG.warn("{}: the handler of {} {} failed", settings.name(), head.method().name(),
          LogValues.quote(path, 200), e);
      exchange.respondText(500, "internal error: " + e.getClass().getName());
    }
  }

  /** Answers an exchange; any thread. */
  void respond(SmallHttpExchange exchange, int status, String contentType, byte[] bytes,
      Map<String, String> headers, boolean close) {
    ChannelHandlerContext ctx = context;
    if (ctx == null) {
      return;
    }
    try {
      ctx.executor().execute(() -> respondNow(status, contentType, bytes, headers, close,
          false));
    } catch (RejectedExecutionException e) {
      // The server is closed: there is no connection left to answer on.
    }
  }

  /**
   * Writes an answer. {@code early} answers are sent while the request's body is still being
   * read and dropped, so they do not end the request.
   */
  private void respondNow(int status, String contentType, byte[] bytes,
      Map<String, String> headers, boolean close, boolean early) {
    ChannelHandlerContext ctx = context;
    if (state == State.CLOSED || !ctx.channel().isActive()) {
      releaseBody();
      return;
    }
    boolean closing = close || closeAfterAnswer || head == null || !HttpUtil.isKeepAlive(head);
    boolean headOnly = head != null && head.method().name().equals("HEAD");
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
        HttpResponseStatus.valueOf(status),
        headOnly ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    response.headers().set(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
    headers.forEach((name, value) -> response.headers().set(name, value));
    if (closing) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    var future = ctx.writeAndFlush(response);
    if (closing) {
      state = State.CLOSED;
      future.addListener(ChannelFutureListener.CLOSE);
    } else if (!early) {
      future.addListener(done -> finishRequest(ctx));
    }
    releaseBody();
  }

  /** The request is over: the connection waits for the next one. */
  private void finishRequest(ChannelHandlerContext ctx) {
    if (state == State.CLOSED) {
      return;
    }
    if (closeAfterAnswer) {
      close(ctx);
      return;
    }
    head = null;
    state = State.IDLE;
    schedule(settings.idleTimeoutNanos());
    ctx.channel().config().setAutoRead(true);
    ctx.read();
  }

  private void sendNow(int status, String message) {
    state = State.WORKING;
    respondNow(status, SmallHttpServer.TEXT, (message + "\n").getBytes(StandardCharsets.UTF_8),
        Map.of(), true, false);
  }

  private byte[] tooLarge(long size) {
    String of = size >= 0 ? "of " + size + " bytes " : "";
    return ("request body " + of + "is over the limit of " + settings.maxBodyBytes()
        + " bytes\n").getBytes(StandardCharsets.UTF_8);
  }

  private void releaseBody() {
    if (reserved > 0) {
      connections.release(reserved);
      reserved = 0;
    }
    body = null;
  }

  private void schedule(long nanos) {
    cancelTimer();
    ChannelHandlerContext ctx = context;
    timer = ctx.executor().schedule(this::timeUp, nanos, TimeUnit.NANOSECONDS);
  }

  private void cancelIdle() {
    if (state == State.IDLE) {
      state = State.HEAD;
      schedule(settings.requestTimeoutNanos());
    }
  }

  private void cancelTimer() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  private void timeUp() {
    ChannelHandlerContext ctx = context;
    if (state != State.IDLE && state != State.CLOSED) {
      LOG.debug("{}: closing the connection from {}: its request took longer than {} ms",
          settings.name(), ctx.channel().remoteAddress(),
          TimeUnit.NANOSECONDS.toMillis(settings.requestTimeoutNanos()));
    }
    close(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable error = SmallHttpServer.errorIn(cause);
    if (error != null) {
      server.fatal("an error on a connection", error);
      return;
    }
    LOG.debug("{}: closing the connection from {}: {}", settings.name(),
        ctx.channel().remoteAddress(), String.valueOf(cause));
    close(ctx);
  }

  private static String pathOf(String uri) {
    try {
      return new QueryStringDecoder(uri).path();
    } catch (IllegalArgumentException e) {
      return uri;
    }
  }

  /**
   * Closes the connection without waiting: a connection whose close fails is gone either way, and
   * Netty frees what it held, so the close's outcome is not watched.
   */
  private static void close(ChannelHandlerContext ctx) {
    ChannelFuture unused = ctx.channel().close();
  }
}
