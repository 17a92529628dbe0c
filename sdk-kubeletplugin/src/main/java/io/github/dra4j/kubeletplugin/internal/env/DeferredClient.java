package io.github.dra4j.kubeletplugin.internal.env;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin's API client, possibly still being made on a thread of its own.
 *
 * <p>Making a fabric8 client loads and initializes a few thousand classes (its object mapper, the
 * HTTP client, TLS): on a small node that is most of a plugin's start-up. Nothing the plugin
 * does before its sockets are up talks to the API server, so the client the plugin makes from
 * the environment is made on the daemon thread {@code dra4j-client-<driver>}, which the plugin
 * {@linkplain #begin() begins} once its sockets are up: on a node with two cores, making it while
 * the sockets start took CPU from the thread starting them. Each user asks for the client ({@link
 * #get()}) only when it first reads or writes: the first claim read, the first slice publish, the
 * first status write; one that asks before the plugin begins it begins it. A client given to the
 * builder is simply {@linkplain #of(KubernetesClient) wrapped}.
 *
 * <p>Thread-safe: the flag that it has begun, the one future it completes and the thread-safe
 * list of resources its factory fills are its only state.
 */
public final class DeferredClient implements Supplier<KubernetesClient> {

  private static final Logger LOG = LoggerFactory.getLogger(DeferredClient.class);

  private final CompletableFuture<KubernetesClient> client;
  private final String masterUrl;
  private final List<? extends AutoCloseable> alsoClosed;
  /** Makes the client on its thread; started at most once, by whoever begins first. */
  private final Thread maker;
  private final AtomicBoolean begun = new AtomicBoolean();
  /** Where the API server's URL came from, for messages; see {@link #origin()}. */
  private volatile String origin = "the client given to kubeClient()";

  private DeferredClient(CompletableFuture<KubernetesClient> client, String masterUrl,
      List<? extends AutoCloseable> alsoClosed, Thread maker) {
    this.client = client;
    this.masterUrl = masterUrl;
    this.alsoClosed = alsoClosed;
    this.maker = maker;
  }

  /**
   * A client that is already made.
   *
   * @param client the client
   * @return it, deferred by nothing
   */
  public static DeferredClient of(KubernetesClient client) {
    Objects.requireNonNull(client, "client");
    return new DeferredClient(CompletableFuture.completedFuture(client),
        client.getMasterUrl() == null ? "(unknown)" : client.getMasterUrl().toString(), List.of(),
        null);
  }

  /**
   * A client to be made on a new daemon thread once {@linkplain #begin() begun}.
   *
   * @param factory makes the client
   * @param masterUrl the API server's URL, known before the client is made
   * @param threadName the thread's name
   * @return the client, not begun
   */
  public static DeferredClient make(Supplier<KubernetesClient> factory, String masterUrl,
      String threadName) {
    return make(factory, masterUrl, threadName, List.of());
  }

  /**
   * A client to be made on a new daemon thread once {@linkplain #begin() begun}, with resources of
   * its own that are closed after it (such as the HTTP client's event loops).
   *
   * @param factory makes the client; it adds to {@code alsoClosed} before it returns
   * @param masterUrl the API server's URL, known before the client is made
   * @param threadName the thread's name
   * @param alsoClosed a thread-safe list, closed in its order after the client
   * @return the client, not begun
   */
  public static DeferredClient make(Supplier<KubernetesClient> factory, String masterUrl,
      String threadName, List<? extends AutoCloseable> alsoClosed) {
    CompletableFuture<KubernetesClient> future = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        future.complete(factory.get());
      } catch (RuntimeException | Error e) {
        future.completeExceptionally(e);
      }
    }, threadName);
    thread.setDaemon(true);
    return new DeferredClient(future, masterUrl, alsoClosed, thread);
  }

  /**
   * Starts making the client, unless that has begun already or it was closed first. The plugin
   * begins it once its sockets are up.
   */
  public void begin() {
    if (maker != null && begun.compareAndSet(false, true)) {
      maker.start();
    }
  }

  /**
   * The client, waiting for it to be made if it is not yet.
   *
   * @return the client
   * @throws KubernetesClientException if it could not be made: callers treat it as the API
   *     server being unreachable, which fails the one read or write that needed it
   */
  @Override
  public KubernetesClient get() {
    begin();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return client.get();
        } catch (InterruptedException e) {
          interrupted = true; // a reader is not cancellable here; keep the flag for the caller
        } catch (ExecutionException e) {
          throw failure(e.getCause());
        } catch (CancellationException e) {
          throw new KubernetesClientException(
              "the API client was closed before it was made", e);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Calls {@code action} once with the error if the client cannot be made; not when it is closed
   * before it was begun.
   *
   * @param action what to do with the error
   */
  public void whenFailed(Consumer<Throwable> action) {
    // The action runs when the client settles; nothing waits for it to have run.
    var unused = client.whenComplete((made, error) -> {
      if (error != null && !(error instanceof CancellationException)) {
        action.accept(error instanceof CompletionException && error.getCause() != null
            ? error.getCause() : error);
      }
    });
  }

  /**
   * The API server's URL, for logs; known without waiting.
   *
   * @return the URL
   */
  public String masterUrl() {
    return masterUrl;
  }

  /**
   * Where the API server's URL came from, for messages that name it.
   *
   * @return for example {@code KUBECONFIG=/etc/kubeconfig}, or {@code the client given to
   *     kubeClient()}
   */
  public String origin() {
    return origin;
  }

  /**
   * Says where the API server's URL came from.
   *
   * @param origin for example {@code KUBECONFIG=/etc/kubeconfig}
   * @return this client
   */
  public DeferredClient from(String origin) {
    this.origin = Objects.requireNonNull(origin, "origin");
    return this;
  }

  /**
   * Closes the client once it is made (at once if it is), then its own resources; does nothing
   * if it failed; one never begun is never made.
   */
  public void close() {
    if (maker != null && begun.compareAndSet(false, true)) {
      client.cancel(false);
      return;
    }
    // Closing does not wait for a client still being made: it is closed once it is there.
    var unused = client.whenComplete((made, error) -> {
      if (made != null) {
        made.close();
      }
      for (AutoCloseable resource : alsoClosed) {
        try {
          resource.close();
        } catch (Exception e) {
          LOG.debug("Closing {} with the API client failed: {}", resource, e.toString());
        }
      }
    });
  }

  private static KubernetesClientException failure(Throwable cause) {
    if (cause instanceof KubernetesClientException e) {
      return e;
    }
    return new KubernetesClientException("the API client could not be made: " + cause, cause);
  }
}
