package io.github.dra4j.kubeletplugin.internal.env;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import java.util.function.Consumer;

/**
 * fabric8's Vert.x 5 HTTP client over a Vert.x instance sized for a node agent: one event loop.
 *
 * <p>fabric8 otherwise makes its own Vert.x instance with Vert.x's defaults, two event loops per
 * core. A request made from a thread that is not Vert.x's (a handler thread reading a claim) is
 * given the next event loop in turn, while its connection belongs to another one, so most
 * requests crossed between two event loops: one more thread wake-up per request. With one event
 * loop the request, its connection and its answer share one thread: claim reads are faster, cost
 * less CPU and need three threads fewer (figures in docs/performance.md, "Two Vert.x event loops
 * per core"). A plugin's API traffic (claim reads, slice and status writes, one or two watches)
 * does not need more than one.
 *
 * <p>Loaded only when fabric8 would use its Vert.x 5 client, so that a driver running the JDK
 * client does not need Vert.x on its class path. Only for a client the plugin makes and closes
 * itself: the instance is closed with it. Stateless.
 */
public final class NodeAgentVertx {

  /** fabric8's factory of Vert.x 5 clients, by name, to check without loading it. */
  public static final String FACTORY = "io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory";

  private NodeAgentVertx() {}

  /**
   * Makes the Vert.x instance and fabric8's factory over it.
   *
   * @param closeWithClient told of the instance to close once the API client is closed
   * @return the factory
   */
  public static HttpClient.Factory factory(Consumer<AutoCloseable> closeWithClient) {
    // As fabric8 makes its own instance (daemon threads, no file cache or class-path resolving:
    // an API client reads no files through Vert.x), with one event loop.
    Vertx vertx = Vertx.vertx(new VertxOptions()
        .setEventLoopPoolSize(1)
        .setUseDaemonThread(true)
        .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false)
            .setClassPathResolvingEnabled(false)));
    closeWithClient.accept(vertx::close);
    return new Vertx5HttpClientFactory(vertx);
  }
}
