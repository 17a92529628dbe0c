package io.github.dra4j.kubeletplugin.internal.publish;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.github.dra4j.kubeletplugin.HealthOptions;
import io.github.dra4j.kubeletplugin.HealthTaints;
import io.github.dra4j.kubeletplugin.RecoverableException;
import io.github.dra4j.kubeletplugin.SliceOptions;
import io.github.dra4j.kubeletplugin.internal.env.DeferredClient;
import io.github.dra4j.kubeletplugin.internal.health.DeviceHealthBoard;
import io.github.dra4j.kubeletplugin.internal.health.HealthTaintMerge;
import io.github.dra4j.resourceslice.ControllerOptions;
import io.github.dra4j.resourceslice.ControllerStats;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.Owner;
import io.github.dra4j.resourceslice.ResourceSliceController;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the driver's devices through a {@link ResourceSliceController} started on first use,
 * as the Go helper's {@code PublishResources} does: the Node is the owner. Every pool sync's
 * outcome goes to the {@link PublishingState} (readiness, one report per change of a pool's
 * state, Node Events); other controller errors (dropped fields, a refused update) reach the
 * driver's {@code DraDriver.handleError} wrapped in {@link RecoverableException}.
 *
 * <p>The controller starts on a thread of its own while the first caller waits for it, so that
 * {@link #close()} never waits for a start in progress: it interrupts the start, which stops
 * waiting for the API server, and the caller returns. Owned by one plugin; thread-safe (guarded
 * by {@code lock}, never held while waiting for the API server).
 *
 * <p>With {@link HealthOptions#taints() health taints} on, the publisher owns the driver's
 * last published resources and adds the taints the devices' health asks for before handing them
 * to the controller: on every publish of the driver, and after a change of health (the board
 * tells it), once per {@link io.github.dra4j.kubeletplugin.HealthOptions#taintDelay() delay}
 * however many changes came,
 * on a timer thread of its own. Both run under {@code lock}, so a publish of the driver and a
 * health change never overtake each other.
 */
public final class SlicePublisher implements AutoCloseable {

  /** The least time between two Events about the Node. */
  public static final Duration EVENT_INTERVAL = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(SlicePublisher.class);

  private final PublishTarget target;
  private final String driverName;
  private final SliceOptions slices;
  private final DeferredClient client;
  private final HealthTaints healthTaints;
  private final Duration healthTaintDelay;
  private final BiConsumer<Throwable, String> errors;
  private final NodeEvents events;
  private final PublishingState state;
  private final Object lock = new Object();
  private ResourceSliceController controller;
  /** The start in progress, and the thread running it; null otherwise. */
  private CompletableFuture<ResourceSliceController> starting;
  private Thread starter;
  /** What the driver last asked for while the controller was starting (with health taints). */
  private DriverResources latest;
  private boolean closed;
  /** The health board; null unless health taints are on. */
  private final DeviceHealthBoard health;
  /** What the driver last published, without health taints; null before its first publish. */
  private DriverResources driverResources;
  /** The health taints of the last hand-over to the controller. */
  private Map<String, Map<String, List<DeviceTaint>>> lastTaints = Map.of();
  /** Runs the coalesced publish after health changes; null unless health taints are on. */
  private final ScheduledExecutorService healthTimer;
  private final AtomicBoolean healthPublishPending = new AtomicBoolean();

  /**
   * A publisher that starts nothing until the first publish.
   *
   * @param target where and as whom to publish
   * @param slices the slices group
   * @param healthOptions the health group, its taints those of the builder or else the driver's
   * @param nodeEvents whether changes of publishing state are posted as Events about the Node
   * @param errors where publishing errors go (the driver's handler)
   * @param board the devices' health; null when the driver reports none
   */
  public SlicePublisher(PublishTarget target, SliceOptions slices, HealthOptions healthOptions,
      boolean nodeEvents, BiConsumer<Throwable, String> errors, DeviceHealthBoard board) {
    this.target = target;
    this.driverName = target.driverName();
    this.slices = slices;
    this.client = target.client();
    this.healthTaints = healthOptions.taints();
    this.healthTaintDelay = healthOptions.taintDelay();
    this.errors = errors;
    this.health = healthTaints != null ? board : null;
    this.healthTimer = health == null ? null : Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "dra4j-health-taints-" + driverName);
      thread.setDaemon(true);
      return thread;
    });
    if (health != null) {
      health.watchChanges(snapshot -> healthChanged());
    }
    this.events = nodeEvents && !target.nodeName().isEmpty()
        ? new NodeEvents(client, driverName, target.nodeName(), target.nodeUid(), EVENT_INTERVAL,
            Clock.systemUTC())
        : null;
    this.state = new PublishingState(driverName,
        (error, message) -> errors.accept(new RecoverableException(error), message), events);
  }

  public void publish(DriverResources resources) {
    CompletableFuture<ResourceSliceController> started;
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the plugin is closed; cannot publish resources");
      }
      if (target.nodeName().isEmpty()) {
        throw new IllegalStateException("no NodeName was set to publish resources");
      }
      state.publishing(resources == null ? Set.of() : resources.pools().keySet());
      driverResources = resources;
      DriverResources wanted = withHealthTaints(resources);
      if (controller != null) {
        controller.update(wanted);
        return;
      }
      latest = wanted;
      if (starting != null) {
        return; // the start in progress publishes the latest resources
      }
      started = new CompletableFuture<>();
      starting = started;
      starter = new Thread(() -> start(wanted, started),
          "dra4j-resourceslice-start-" + driverName);
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
            driverName);
        return;
      }
      // One line that says which server, from which setting, and why: the causes' messages.
      throw new IllegalStateException("start ResourceSlice controller: "
          + e.getCause().getMessage() + " (API server " + client.masterUrl()
          + " from " + client.origin() + "; option ApiServerOptions.timeout is "
          + target.apiServerTimeout() + ")", e.getCause());
    }
  }

  /** Starts the controller, on the starter thread. */
  private void start(DriverResources resources, CompletableFuture<ResourceSliceController> done) {
    ControllerOptions.Builder options = ResourceSliceController.builder()
        .driverName(driverName)
        .client(client.get())
        .owner(Owner.node(target.nodeName(), target.nodeUid()))
        .resources(resources)
        .meterRegistry(target.registry())
        .startTimeout(target.apiServerTimeout())
        .poolStatusListener(state)
        .errorHandler((error, message) -> errors.accept(new RecoverableException(error), message));
    if (!slices.reconcilePoolWithName().isEmpty()) {
      options.reconcilePoolWithName(slices.reconcilePoolWithName());
    }
    if (slices.syncDelay() != null) {
      options.syncDelay(slices.syncDelay());
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
    // Identity on purpose: whether update was called while the controller started; comparing
    // the pools by value would cost a walk over every device for no difference in what is sent.
    @SuppressWarnings("ReferenceEquality")
    boolean updatedMeanwhile = newer != resources;
    if (updatedMeanwhile) {
      made.update(newer);
    }
    done.complete(made);
  }

  /** The driver's resources with health taints; the caller holds {@code lock}. */
  private DriverResources withHealthTaints(DriverResources resources) {
    if (health == null) {
      return resources;
    }
    lastTaints = HealthTaintMerge.taints(driverName, health.snapshot(),
        healthTaints);
    return HealthTaintMerge.merge(resources, lastTaints);
  }

  /** A device's health changed: one publish after the delay, for all changes until then. */
  private void healthChanged() {
    if (!healthPublishPending.compareAndSet(false, true)) {
      return; // the publish already scheduled sees this change too
    }
    try {
      // Runs once; publishHealth handles its own failures and nothing waits for it.
      var unused = healthTimer.schedule(this::publishHealth, healthTaintDelay.toMillis(),
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      healthPublishPending.set(false);
    }
  }

  /** Publishes the driver's last resources again with the current health taints. */
  private void publishHealth() {
    healthPublishPending.set(false); // a change from now on schedules the next publish
    try {
      synchronized (lock) {
        if (closed || driverResources == null) {
          return; // nothing to taint yet: the driver's first publish adds the taints
        }
        Map<String, Map<String, List<DeviceTaint>>> before = lastTaints;
        DriverResources wanted = withHealthTaints(driverResources);
        if (lastTaints.equals(before)) {
          return;
        }
        LOG.debug("Publishing the devices of driver {} again for their health",
            driverName);
        if (controller != null) {
          controller.update(wanted);
        } else if (starting != null) {
          latest = wanted;
        }
      }
    } catch (RuntimeException e) { // a policy of the driver's that throws
      errors.accept(new RecoverableException(e), "add health taints to the published devices");
    }
  }

  /** Whether every pool the driver asked for is published; false before its first publish. */
  public boolean ready() {
    return state.ready();
  }

  /** Runs an action once every pool the driver asked for is first published. */
  public void whenPublished(Runnable action) {
    state.whenPublished(action);
  }

  /**
   * Counts of ResourceSlice writes so far.
   *
   * @return all zero before the controller started
   */
  public ControllerStats stats() {
    synchronized (lock) {
      return controller == null ? new ControllerStats(0, 0, 0) : controller.stats();
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
    if (healthTimer != null) {
      healthTimer.shutdownNow();
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
