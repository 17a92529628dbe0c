package io.github.dra4j.kubeletplugin.internal.socket;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Notices when a plugin's socket stops serving: its file deleted or replaced (someone cleaned the
 * directory, another process took the name) or its server stopped. Each broken server is reported
 * once to the error handler, with the message {@code "DRA gRPC server failed"} or {@code
 * "registrar gRPC server failed"} (a Go driver's words for a failed server).
 *
 * <p>Run periodically by the owning plugin; thread-safe.
 */
public final class SocketWatch implements Runnable {

  /** A watched server and the message its failure is reported with. */
  public record Watched(UnixSocketServer server, String failureMessage) {}

  private final List<Watched> servers;
  private final BiConsumer<Throwable, String> errors;
  private final Set<Watched> reported = ConcurrentHashMap.newKeySet();

  /**
   * Creates the watch.
   *
   * @param servers the servers to check
   * @param errors receives each failure once
   */
  public SocketWatch(List<Watched> servers, BiConsumer<Throwable, String> errors) {
    this.servers = List.copyOf(servers);
    this.errors = errors;
  }

  @Override
  public void run() {
    for (Watched watched : servers) {
      if (!watched.server().isServing() && reported.add(watched)) {
        errors.accept(
            new IllegalStateException(
                "socket \"" + watched.server().path()
                    + "\" was removed or replaced, or its server stopped; the kubelet can no"
                    + " longer reach the plugin"),
            watched.failureMessage());
      }
    }
  }
}
