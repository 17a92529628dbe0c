package io.github.dra4j.core.http;

import io.github.dra4j.core.option.OptionChecks;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;

/** Configures a {@link SmallHttpServer}; not thread-safe. */
public final class SmallHttpServerBuilder {

  final String name;
  final SmallHttpServer.Handler handler;
  InetSocketAddress address = new InetSocketAddress(0);
  Supplier<SSLEngine> tls;
  int threads = 1;
  int backlog = 128;
  int maxConnections = 512;
  Duration requestTimeout = Duration.ofSeconds(10);
  Duration idleTimeout = Duration.ofSeconds(90);
  int maxHeaderBytes = 16 * 1024;
  int maxBodyBytes = 1024 * 1024;
  long discardBytes = 16L * 1024 * 1024;
  long bodyBudget = 16L * 1024 * 1024;
  BiConsumer<String, Throwable> onFatal = FatalErrors::exitProcess;

  SmallHttpServerBuilder(String name, SmallHttpServer.Handler handler) {
    this.name = Objects.requireNonNull(name, "name");
    this.handler = Objects.requireNonNull(handler, "handler");
  }

  /**
   * Where to listen; default every address, a free port.
   *
   * @param address the address
   * @return this builder
   */
  public SmallHttpServerBuilder address(InetSocketAddress address) {
    this.address = Objects.requireNonNull(address, "address");
    return this;
  }

  /**
   * Serves HTTPS: each connection gets a new server-mode engine from the supplier.
   *
   * @param engines makes the TLS engine of a connection
   * @return this builder
   */
  public SmallHttpServerBuilder tls(Supplier<SSLEngine> engines) {
    this.tls = Objects.requireNonNull(engines, "engines");
    return this;
  }

  /**
   * The event loop threads that accept, read and write; default 1.
   *
   * @param threads at least 1
   * @return this builder
   */
  public SmallHttpServerBuilder threads(int threads) {
    this.threads = OptionChecks.atLeast(threads, 1, "threads");
    return this;
  }

  /**
   * How many connections may wait to be accepted; default 128.
   *
   * @param backlog at least 1
   * @return this builder
   */
  public SmallHttpServerBuilder backlog(int backlog) {
    this.backlog = OptionChecks.atLeast(backlog, 1, "backlog");
    return this;
  }

  /**
   * The most connections open at once; default 512.
   *
   * @param maxConnections at least 1
   * @return this builder
   */
  public SmallHttpServerBuilder maxConnections(int maxConnections) {
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
  public SmallHttpServerBuilder requestTimeout(Duration requestTimeout) {
    this.requestTimeout = OptionChecks.positive(requestTimeout, "requestTimeout");
    return this;
  }

  /**
   * How long a connection may wait for its next request; default 90 s.
   *
   * @param idleTimeout positive
   * @return this builder
   */
  public SmallHttpServerBuilder idleTimeout(Duration idleTimeout) {
    this.idleTimeout = OptionChecks.positive(idleTimeout, "idleTimeout");
    return this;
  }

  /**
   * The most bytes of a request line and of all headers; default 16 KiB. Beyond, 431.
   *
   * @param maxHeaderBytes at least 1024
   * @return this builder
   */
  public SmallHttpServerBuilder maxHeaderBytes(int maxHeaderBytes) {
    this.maxHeaderBytes = OptionChecks.atLeast(maxHeaderBytes, 1024, "maxHeaderBytes");
    return this;
  }

  /**
   * The largest request body; default 1 MiB. Beyond, 413.
   *
   * @param maxBodyBytes zero or more
   * @return this builder
   */
  public SmallHttpServerBuilder maxBodyBytes(int maxBodyBytes) {
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
  public SmallHttpServerBuilder discardBytes(long discardBytes) {
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
  public SmallHttpServerBuilder bodyBudget(long bodyBudget) {
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
  public SmallHttpServerBuilder onFatal(BiConsumer<String, Throwable> onFatal) {
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
