package io.github.dra4j.kubeletplugin.internal.socket;

import io.github.dra4j.kubelet.wire.internal.EpollEventLoops;
import io.github.dra4j.kubeletplugin.internal.grpc.CallOffload;
import io.github.dra4j.kubeletplugin.internal.server.FatalErrors;
import io.github.dra4j.kubeletplugin.internal.server.ServerGuard;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gRPC server listening on a Unix domain socket file, created safely.
 *
 * <p>Creation never steals a live socket and never exposes a half-configured one: the server binds
 * a hidden temporary name in the same directory (the kubelet ignores names starting with a dot),
 * sets the file mode, checks that nobody serves the final name, and renames the socket into place
 * in one step, so the kubelet's directory watcher sees a complete socket appear. A stale file at
 * the final name (left by a killed process) is replaced; a live one is refused with {@link
 * SocketInUseException}.
 *
 * <p>Closing stops the server and removes the socket file, but only if the file at the path is
 * still the one this server created (same inode); a file another process put there meanwhile is
 * left alone. Owned by the plugin that started it; {@link #close()} is idempotent and thread-safe.
 */
public final class UnixSocketServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(UnixSocketServer.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path path;
  private final Server server;
  private final Object inode;
  private boolean closed;

  private UnixSocketServer(Path path, Server server, Object inode) {
    this.path = path;
    this.server = server;
    this.inode = inode;
  }

  /**
   * What a server needs besides its services.
   *
   * @param loops event loops to serve on (borrowed, not closed by the server)
   * @param executor executor running the service handlers (borrowed, not closed)
   * @param interceptors interceptors in call order: the first one sees a call first
   * @param lightStart whether the interceptors and services start and complete calls without
   *     blocking, so that the event loop may do it ({@link CallOffload})
   * @param permissions file mode of the socket
   * @param probe probe deciding whether an existing socket is still served
   * @param fatal where JVM errors caught while serving a call go
   */
  public record Settings(
      EpollEventLoops loops,
      Executor executor,
      List<ServerInterceptor> interceptors,
      boolean lightStart,
      Set<PosixFilePermission> permissions,
      SocketProbe probe,
      FatalErrors fatal) {
    /**
     * Defensive copies.
     *
     * @param loops epoll event loops that both accept connections and do the socket I/O;
     *     borrowed, the server never shuts them down
     * @param executor runs the service handlers and interceptors, handed each call's work once by
     *     {@link CallOffload}; borrowed, never shut down
     * @param interceptors interceptors in call order (the first one sees a call first); copied,
     *     not null and without null elements
     * @param lightStart true if every interceptor's {@code interceptCall} and every listener's
     *     {@code onReady} and {@code onComplete} return without blocking, so that the event loop
     *     runs them itself and a unary call needs one hand-over to the executor; false to hand
     *     over every step
     * @param permissions file mode set on the socket before it is renamed into place, e.g. {@code
     *     rw-------}; copied, not null
     * @param probe decides whether a file at the socket path is still served by a live process,
     *     both before binding and just before the rename
     * @param fatal gets the JVM errors ({@link FatalErrors#isFatal}) that a call's handler threw
     * @throws NullPointerException if {@code interceptors} or {@code permissions} (or an element)
     *     is null
     */
    public Settings {
      interceptors = List.copyOf(interceptors);
      permissions = Set.copyOf(permissions);
    }
  }

  /**
   * Starts a server on {@code path} with the given services.
   *
   * @param path the socket path; its directory must exist
   * @param services the gRPC services to serve
   * @param settings event loops, executor, interceptors, mode and probe
   * @param guard the limits on connections and what they may hold
   * @return the running server
   * @throws IOException if the directory is missing, the path is too long, the socket is served
   *     by a live process ({@link SocketInUseException}), or binding fails
   */
  public static UnixSocketServer start(Path path, List<ServerServiceDefinition> services,
      Settings settings, ServerGuard guard) throws IOException {
    Path directory = path.toAbsolutePath().getParent();
    if (directory == null || !Files.isDirectory(directory)) {
      throw new NoSuchFileException(
          String.valueOf(directory), null, "socket directory does not exist");
    }
    if (!SocketNames.fits(path)) {
      throw new IOException(
          "socket path \""
              + path
              + "\" is "
              + SocketNames.byteLength(path)
              + " bytes long; Linux allows at most "
              + SocketNames.MAX_SOCKET_PATH_BYTES);
    }
    removeStale(path, settings.probe());

    Path bindPath = temporarySibling(path);
    Server server = build(bindPath, services, settings, guard);
    server.start();
    try {
      Files.setPosixFilePermissions(bindPath, settings.permissions());
      if (!bindPath.equals(path)) {
        if (settings.probe().isServed(path)) {
          throw new SocketInUseException(path);
        }
        Files.move(bindPath, path, StandardCopyOption.ATOMIC_MOVE);
      }
      Object inode = Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS);
      LOG.debug("gRPC server listening on {} (mode {})", path,
          PosixFilePermissions.toString(settings.permissions()));
      return new UnixSocketServer(path, server, inode);
    } catch (IOException | RuntimeException e) {
      server.shutdownNow();
      awaitQuietly(server);
      Files.deleteIfExists(bindPath);
      throw e;
    }
  }

  /**
   * The socket path this server listens on.
   *
   * @return the path
   */
  public Path path() {
    return path;
  }

  /**
   * Whether the server runs and its socket file is still the one it created. A deleted or
   * replaced socket file means the kubelet can no longer reach this server.
   *
   * @return true while serving on its own, intact socket file
   */
  public boolean isServing() {
    if (server.isShutdown()) {
      return false;
    }
    return ownsSocketFile();
  }

  /** Stops the server at once (in-flight calls are cancelled) and removes its socket file. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.shutdownNow();
    awaitQuietly(server);
    if (ownsSocketFile()) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        LOG.warn("Could not remove socket {}: {}", path, e.toString());
      }
    }
  }

  private boolean ownsSocketFile() {
    try {
      return inode.equals(Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      return false;
    }
  }

  private static void removeStale(Path path, SocketProbe probe) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException("socket path \"" + path + "\" is a directory");
    }
    if (probe.isServed(path)) {
      throw new SocketInUseException(path);
    }
    LOG.info("Removing stale socket file {}", path);
    Files.deleteIfExists(path);
  }

  private static Path temporarySibling(Path path) {
    byte[] suffix = new byte[6];
    RANDOM.nextBytes(suffix);
    Path candidate = path.resolveSibling(".dra4j-" + HexFormat.of().formatHex(suffix) + ".sock");
    // A very short final name in a very long directory: bind in place instead.
    return SocketNames.fits(candidate) ? candidate : path;
  }

  private static Server build(Path bindPath, List<ServerServiceDefinition> services,
      Settings settings, ServerGuard guard) {
    NettyServerBuilder builder = NettyServerBuilder
        .forAddress(new DomainSocketAddress(bindPath.toString()))
        .bossEventLoopGroup(settings.loops().group())
        .workerEventLoopGroup(settings.loops().group())
        // The event loop delivers each call to CallOffload, which hands it to the executor.
        .directExecutor()
        .withChildOption(ChannelOption.SO_KEEPALIVE, null);
    guard.apply(builder, EpollServerDomainSocketChannel::new);
    services.forEach(builder::addService);
    // grpc-java runs the interceptor added last first; add in reverse to keep the given order.
    List<ServerInterceptor> interceptors = settings.interceptors();
    for (int i = interceptors.size() - 1; i >= 0; i--) {
      builder.intercept(interceptors.get(i));
    }
    builder.intercept(
        new CallOffload(settings.executor(), settings.lightStart(), settings.fatal()));
    return builder.build();
  }

  private static void awaitQuietly(Server server) {
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
