package io.github.dra4j.kubeletplugin;

import io.github.dra4j.kubeletplugin.internal.publish.NodeEvents;
import io.github.dra4j.kubeletplugin.internal.publish.PublishingState;
import io.github.dra4j.resourceslice.ControllerOptions;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Owner;
import io.github.dra4j.resourceslice.ResourceSliceController;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the driver's devices through a {@link ResourceSliceController} started on first use,
 * as the Go helper's {@code PublishResources} does: the Node is the owner. Every pool sync's
 * outcome goes to the {@link PublishingState} (readiness, one report per change of a pool's
 * state, Node Events); other controller errors (dropped fields, a refused update) reach the
 * driver's {@link DraDriver#handleError} wrapped in {@link RecoverableException}.
 *
 * <p>The controller starts on a thread of its own while the first caller waits for it, so that
 * {@link #close()} never waits for a start in progress: it interrupts the start, which stops
 * waiting for the API server, and the caller returns. Owned by one plugin; thread-safe (guarded
 * by {@code lock}, never held while waiting for the API server).
 */
final class SlicePublisher implements AutoCloseable {

  /** The least time between two Events about the Node. */
  static final Duration EVENT_INTERVAL = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(SlicePublisher.class);

  private final PluginSettings settings;
  private final BiConsumer<Throwable, String> errors;
  private final NodeEvents events;
  private final PublishingState state;
  private final Object lock = new Object();
  private ResourceSliceController controller;
  /** The start in progress, and the thread running it; null otherwise. */
  private CompletableFuture<ResourceSliceController> starting;
  private Thread starter;
  /** What the driver last asked for while the controller was starting. */
  private DriverResources latest;
  private boolean closed;

  SlicePublisher(PluginSettings settings, BiConsumer<Throwable, String> errors) {
    this.settings = settings;
    this.errors = errors;
    this.events = settings.nodeEvents() && !settings.nodeName().isEmpty()
        ? new NodeEvents(settings.kubeClient(), settings.driverName(), settings.nodeName(),
            settings.nodeUid(), EVENT_INTERVAL, Clock.systemUTC())
        : null;
    this.state = new PublishingState(settings.driverName(),
        (error, message) -> errors.accept(new RecoverableException(error), message), events);
  }

  void publish(DriverResources resources) {
    CompletableFuture<ResourceSliceController> started;
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the plugin is closed; cannot publish resources");
      }
      if (settings.nodeName().isEmpty()) {
        throw new IllegalStateException("no NodeName was set to publish resources");
      }
      state.publishing(resources == null ? Set.of() : resources.pools().keySet());
      if (controller != null) {
        controller.update(resources);
        return;
      }
      latest = resources;
      if (starting != null) {
        return; // the start in progress publishes the latest resources
      }
      started = new CompletableFuture<>();
      starting = started;
      starter = new Thread(() -> start(resources, started),
          "dra4j-resourceslice-start-" + settings.driverName());
      starter.setDaemon(true);
      starter.start();
    }
    try {
      started.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("start ResourceSlice controller: interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Closing) {
        LOG.info("Publishing of driver {} cut short: the plugin is closing",
            settings.driverName());
        return;
      }
      // One line that says which server, from which setting, and why: the causes' messages.
      throw new IllegalStateException("start ResourceSlice controller: "
          + e.getCause().getMessage() + " (API server " + settings.kubeClient().masterUrl()
          + " from " + settings.kubeClient().origin() + "; option apiServerTimeout is "
          + settings.apiServerTimeout() + ")", e.getCause());
    }
  }

  /** Starts the controller, on the starter thread. */
  private void start(DriverResources resources, CompletableFuture<ResourceSliceController> done) {
    ControllerOptions.Builder options = ResourceSliceController.builder()
        .driverName(settings.driverName())
        .client(settings.kubeClient().get())
        .owner(Owner.node(settings.nodeName(), settings.nodeUid()))
        .resources(resources)
        .meterRegistry(settings.meterRegistry())
        .startTimeout(settings.apiServerTimeout())
        .poolStatusListener(state)
        .errorHandler((error, message) -> errors.accept(new RecoverableException(error), message));
    if (!settings.reconcilePoolWithName().isEmpty()) {
      options.reconcilePoolWithName(settings.reconcilePoolWithName());
    }
    if (settings.sliceSyncDelay() != null) {
      options.syncDelay(settings.sliceSyncDelay());
    }
    ResourceSliceController made;
    try {
      made = options.start();
    } catch (RuntimeException e) {
      boolean wasClosed;
      synchronized (lock) {
        starting = null;
        starter = null;
        wasClosed = closed;
      }
      if (!wasClosed) {
        state.startFailed(e);
      }
      done.completeExceptionally(wasClosed ? new Closing() : e);
      return;
    }
    DriverResources newer;
    boolean kept;
    synchronized (lock) {
      starting = null;
      starter = null;
      kept = !closed;
      if (kept) {
        controller = made;
      }
      newer = latest;
    }
    if (!kept) {
      made.close();
      done.completeExceptionally(new Closing());
      return;
    }
    state.started();
    if (newer != resources) {
      made.update(newer);
    }
    done.complete(made);
  }

  /** Whether every pool the driver asked for is published; false before its first publish. */
  boolean ready() {
    return state.ready();
  }

  /** Runs an action once every pool the driver asked for is first published. */
  void whenPublished(Runnable action) {
    state.whenPublished(action);
  }

  ResourceSliceController controller() {
    synchronized (lock) {
      return controller;
    }
  }

  /** Stops publishing at once: a start in progress is cut short, the controller stopped. */
  @Override
  public void close() {
    ResourceSliceController running;
    CompletableFuture<ResourceSliceController> waiting;
    Thread starting;
    synchronized (lock) {
      closed = true;
      running = controller;
      waiting = this.starting;
      starting = starter;
    }
    if (waiting != null) {
      waiting.completeExceptionally(new Closing());
    }
    if (starting != null) {
      starting.interrupt();
    }
    if (running != null) {
      running.close();
    }
    if (events != null) {
      events.close();
    }
  }

  /** Ends the wait of a publish whose start the plugin's close cut short. */
  private static final class Closing extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Closing() {
      super("the plugin is closing", null, false, false);
    }
  }
}
