package io.github.dra4j.resourceslice;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.github.dra4j.resourceslice.internal.client.BoundedClient;
import io.github.dra4j.resourceslice.internal.client.SliceClient;
import io.github.dra4j.resourceslice.internal.client.SliceInformer;
import io.github.dra4j.resourceslice.internal.queue.PoolQueue;
import io.github.dra4j.resourceslice.internal.queue.SyncRateLimiter;
import io.github.dra4j.resourceslice.internal.sync.DesiredPool;
import io.github.dra4j.resourceslice.internal.sync.DesiredState;
import io.github.dra4j.resourceslice.internal.sync.NewSlices;
import io.github.dra4j.resourceslice.internal.sync.PoolSync;
import io.github.dra4j.resourceslice.internal.sync.PublishedMeters;
import io.github.dra4j.resourceslice.internal.sync.SliceCache;
import io.github.dra4j.resourceslice.internal.sync.SliceEvents;
import io.github.dra4j.resourceslice.internal.sync.SyncMetrics;
import io.github.dra4j.resourceslice.internal.validation.PoolValidator;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a DRA driver's devices as ResourceSlices and keeps them converged: the Java twin of
 * Go's {@code k8s.io/dynamic-resource-allocation/resourceslice} controller (its {@code Controller}:
 * same triggers, generations, slice names, write order and error texts; design notes in {@code
 * docs/resourceslice-controller.md}), plus a check of every slice with the API server's own
 * rules before it is sent ({@code dra4j-resourceapi}), per-pool error isolation and fast recreation
 * of slices deleted by someone else.
 *
 * <p>How it works: an informer watches the driver's slices on this node (field selector {@code
 * spec.driver=<driver>,spec.nodeName=<node or empty>}) through the newest {@code
 * resource.k8s.io} version the server serves; events schedule pool syncs after the sync delay; one
 * worker thread takes pool names from a rate-limited queue and makes the pool's slices match the
 * desired state with as few writes as possible (delete obsolete, update changed, create missing).
 * Failed syncs are reported to the {@link ErrorHandler} and retried with backoff (5 ms doubling up
 * to 1000 s). Every request the controller makes ends after the client's request timeout (10 s
 * if it has none) without the client's own retries, so an API server that never answers fails a
 * sync instead of holding the worker.
 *
 * <p>Thread safety: {@link #update}, {@link #stats} and {@link #close} may be called from any
 * thread. The desired state is replaced atomically by {@code update}; the worker thread owns the
 * sync and the stored desired state's slice content.
 */
public final class ResourceSliceController implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ResourceSliceController.class);
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private final ControllerOptions options;
  /** The driver's client with bounded requests ({@link BoundedClient}); never closed here. */
  private final KubernetesClient client;
  private final KubernetesSerialization serialization;
  private final PoolValidator validator;
  private final SliceClient slices;
  private final SliceCache cache;
  private final PoolQueue queue;
  private final SyncMetrics metrics;
  private final PublishedMeters published;
  private final PoolSync sync;
  private final Thread worker;
  private final Object updateLock = new Object();
  private volatile DesiredState desired = DesiredState.EMPTY;
  private volatile SliceInformer informer;
  private volatile boolean closed;

  private ResourceSliceController(ControllerOptions options, PoolValidator validator,
      NewSlices newSlices) {
    this.options = options;
    this.client = BoundedClient.of(options.client());
    this.serialization = options.client().getKubernetesSerialization();
    this.validator = validator;
    this.slices = new SliceClient(client);
    this.cache = new SliceCache(options.mutationCacheTtl(), System::nanoTime);
    this.queue = new PoolQueue(new SyncRateLimiter(System::nanoTime), System::nanoTime);
    this.metrics = new SyncMetrics(options.meterRegistry(), options.driverName());
    this.published = new PublishedMeters(options.meterRegistry(), options.driverName());
    this.sync = new PoolSync(new PoolSync.Setup(newSlices, client, slices, cache,
        this::report, metrics));
    this.worker = new Thread(this::work, "dra4j-resourceslice-" + options.driverName());
    this.worker.setDaemon(true);
  }

  /**
   * Starts configuring a controller; finish with {@link ControllerOptions.Builder#start()}.
   *
   * <pre>{@code
   * ResourceSliceController controller = ResourceSliceController.builder()
   *     .driverName("gpu.example.com")
   *     .client(client)
   *     .owner(Owner.node(nodeName, null))
   *     .resources(DriverResources.of(nodeName, pool))
   *     .start();
   * }</pre>
   *
   * @return a builder
   */
  public static ControllerOptions.Builder builder() {
    return ControllerOptions.builder();
  }

  /**
   * Starts a controller: checks the options, starts the informer and waits for its first list
   * (falling back from {@code v1} to {@code v1beta2} and {@code v1beta1} on 404), publishes the
   * initial resources and starts the worker.
   */
  static ResourceSliceController start(ControllerOptions options) {
    Optional<String> problem = optionProblem(options);
    if (problem.isPresent()) {
      throw new ControllerStartException(new IllegalArgumentException(problem.get()));
    }
    Owner owner = options.owner();
    String nodeName = owner != null && owner.isNode() && options.reconcilePoolWithName() == null
        ? owner.name() : null;
    NewSlices newSlices = new NewSlices(options.driverName(), owner, nodeName);
    PoolValidator validator = new PoolValidator(newSlices);
    // A driver name the server refuses, or that makes the slice names it refuses, fails every
    // pool: say so at start.
    problem = validator.driverNameProblem();
    if (problem.isPresent()) {
      throw new ControllerStartException(new IllegalArgumentException(problem.get()));
    }
    ResourceSliceController controller = new ResourceSliceController(options, validator, newSlices);
    Map<String, String> fieldSelector = new LinkedHashMap<>();
    fieldSelector.put("spec.driver", options.driverName());
    fieldSelector.put("spec.nodeName", nodeName == null ? "" : nodeName);
    SliceEvents events = new SliceEvents(controller.cache, controller.queue, options.syncDelay(),
        options.recreateDelay(), options.reconcilePoolWithName());
    try {
      controller.informer = SliceInformer.start(controller.client, controller.slices,
          fieldSelector, events, options.startTimeout());
    } catch (KubernetesClientException e) {
      controller.close();
      throw new ControllerStartException(
          new IllegalStateException("sync ResourceSlice informer: " + e.getMessage(), e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      controller.close();
      throw new ControllerStartException(
          new IllegalStateException("sync ResourceSlice informer: interrupted", e));
    }
    SliceInformer running = controller.informer;
    String onlyPool = options.reconcilePoolWithName();
    controller.cache.attach(pool -> onlyPool != null && !onlyPool.equals(pool)
        ? List.of() : running.pool(pool));
    LOG.info("ResourceSlice controller for driver {} started ({}, node {})",
        options.driverName(), controller.informer.version().apiVersion(),
        nodeName == null ? "<none>" : nodeName);
    controller.update(options.resources());
    controller.worker.start();
    return controller;
  }

  /** Why a controller without an API client cannot start, and how to give it one. */
  private static final String NO_CLIENT = "no Kubernetes API client: set one with the builder's"
      + " client(KubernetesClient), for example new KubernetesClientBuilder().build(), which reads"
      + " KUBECONFIG or, in a pod, its service account";

  private static Optional<String> optionProblem(ControllerOptions options) {
    if (options.driverName() == null || options.driverName().isEmpty()) {
      return Optional.of("DRA driver name is empty");
    }
    if (options.client() == null) {
      return Optional.of(NO_CLIENT);
    }
    return Optional.empty();
  }

  /**
   * Replaces what is published: the new state is stored as a deep copy (taint times
   * rounded to the second), then the pools of the previous and the new state are synced at once
   * (so removed pools are deleted). Invalid pools are reported with {@link
   * PoolValidationException} when synced and left untouched; other pools are still published.
   * With reconcile-pool-with-name, a state with other pools is reported (message {@code
   * processing update DriverResources}) and ignored.
   *
   * @param resources the new desired resources; null publishes nothing
   */
  public void update(DriverResources resources) {
    synchronized (updateLock) {
      if (closed) {
        LOG.warn("Ignoring update of a stopped ResourceSlice controller");
        return;
      }
      DesiredState previous = desired;
      String only = options.reconcilePoolWithName();
      Map<String, Pool> pools = resources == null ? Map.of() : resources.pools();
      if (only != null && !pools.isEmpty() && !(pools.size() == 1 && pools.containsKey(only))) {
        previous.pools().keySet().forEach(queue::add);
        report(new IllegalArgumentException("ReconcilePoolWithName=\"" + only + "\", but found "
            + pools.size() + " pools; expected exactly one pool with this name"),
            "processing update DriverResources");
        return;
      }
      DesiredState next = DesiredState.copyOf(resources, serialization, validator::validate);
      // Publish the new state before queueing: a sync of an old pool must already see it (the Go
      // controller gets the same effect by holding its mutex while it queues).
      desired = next;
      previous.pools().keySet().forEach(queue::add);
      next.pools().keySet().forEach(queue::add);
    }
  }

  /**
   * Returns how many writes succeeded so far.
   *
   * @return creates, updates and deletes
   */
  public ControllerStats stats() {
    return metrics.stats();
  }

  /**
   * The {@code resource.k8s.io} version the controller publishes through: the newest the API
   * server serves.
   *
   * @return for example {@code resource.k8s.io/v1}
   */
  public String apiVersion() {
    return slices.version().apiVersion();
  }

  private void work() {
    while (true) {
      String pool;
      try {
        pool = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      if (pool == null) {
        return;
      }
      long started = System.nanoTime();
      DesiredState state = desired;
      RuntimeException failure = null;
      try {
        if (sync.sync(pool, state)) {
          queue.addAfter(pool, options.mutationCacheTtl());
        }
        queue.forget(pool);
      } catch (PoolValidationException e) {
        // Not retried: the same desired state would fail the same way. The pool's slices stay as
        // they are until the driver's next update (the Go controller does the same).
        failure = e;
        queue.forget(pool);
        if (options.poolStatusListener() == null) {
          report(e, "pool validation failed");
        }
      } catch (RuntimeException e) {
        failure = e;
        if (!closed) {
          if (options.poolStatusListener() == null) {
            report(e, "processing ResourceSlice objects");
          }
          queue.addRateLimited(pool);
        }
      } finally {
        metrics.synced(Duration.ofNanos(System.nanoTime() - started), failure == null);
        queue.done(pool);
      }
      if (!closed) {
        poolSynced(pool, state, failure);
      }
    }
  }

  /** Records and announces a pool's state after a sync attempt. */
  private void poolSynced(String pool, DesiredState state, RuntimeException failure) {
    DesiredPool wanted = state.pools().get(pool);
    int slices = 0;
    int devices = 0;
    if (failure == null) {
      if (wanted != null) {
        slices = wanted.slices().size();
        devices = wanted.slices().stream().mapToInt(s -> s.devices().size()).sum();
      }
    } else {
      for (ResourceSlice slice : cache.pool(pool)) {
        slices++;
        devices += slice.getSpec() == null || slice.getSpec().getDevices() == null
            ? 0 : slice.getSpec().getDevices().size();
      }
    }
    PoolStatus status = new PoolStatus(pool, wanted != null, slices, devices,
        Optional.ofNullable(failure));
    published.update(status);
    PoolStatusListener listener = options.poolStatusListener();
    if (listener != null) {
      try {
        listener.poolStatus(status);
      } catch (RuntimeException e) {
        LOG.error("ResourceSlice pool status listener failed on pool \"{}\"", pool, e);
      }
    }
  }

  /**
   * The state of every pool after its last sync attempt: what the API server holds of it and why
   * its last sync failed, if it did. A pool appears after its first sync attempt and disappears
   * once it is removed from the desired resources and its slices are deleted.
   *
   * @return pool names to states, a copy
   */
  public Map<String, PoolStatus> poolStatuses() {
    return published.statuses();
  }

  /** The driver's error handler, guarded: a handler that throws never breaks a sync. */
  private void report(Throwable error, String message) {
    try {
      options.errorHandler().handle(error, message);
    } catch (RuntimeException e) {
      LOG.error("ResourceSlice controller error handler failed on \"{}\"", message, e);
    }
  }

  /**
   * Stops the informer and the worker (a sync in progress is interrupted; waiting up to 10 s for
   * it to end). Published
   * slices stay. Idempotent; may be called from the {@link ErrorHandler}, which runs on the
   * worker (the worker then ends when the handler returns).
   */
  @Override
  public void close() {
    synchronized (updateLock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    SliceInformer running = informer;
    if (running != null) {
      running.close();
    }
    queue.shutDown();
    if (Thread.currentThread() == worker) {
      // Closed from the error handler, which runs on the worker: it ends when the handler returns.
      LOG.info("ResourceSlice controller for driver {} stopped", options.driverName());
      return;
    }
    if (worker.isAlive()) {
      // A sync in progress is cut short: its request stops waiting for the API server.
      worker.interrupt();
      try {
        worker.join(STOP_WAIT.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (worker.isAlive()) {
        LOG.warn("ResourceSlice worker still busy {} s after stop; leaving it",
            STOP_WAIT.toSeconds());
      }
    }
    LOG.info("ResourceSlice controller for driver {} stopped", options.driverName());
  }

}
