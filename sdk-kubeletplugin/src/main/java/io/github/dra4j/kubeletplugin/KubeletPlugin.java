package io.github.dra4j.kubeletplugin;

import io.github.dra4j.kubeletplugin.internal.env.PluginEnvironment;
import io.github.dra4j.kubeletplugin.internal.health.DeviceHealthBoard;
import io.github.dra4j.kubeletplugin.internal.health.HealthGauges;
import io.github.dra4j.kubeletplugin.internal.liveness.LivenessServer;
import io.github.dra4j.kubeletplugin.internal.status.ClaimStatusWriter;
import io.github.dra4j.kubeletplugin.spi.DirectoryChecks;
import io.github.dra4j.metrics.PrometheusEndpoint;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceslice.ControllerStats;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.ResourceSliceController;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running DRA kubelet plugin: the Java counterpart of the Go helper returned by {@code
 * kubeletplugin.Start}.
 *
 * <p>Start one with {@link #builder(DraDriver)}. It serves the DRA services (v1 and v1beta1, and
 * device health when the driver reports it) on the DRA socket and plugin registration on the
 * registration socket, which the kubelet discovers. {@link #close()} stops both servers and
 * removes their sockets, which deregisters the plugin.
 *
 * <p>How a plugin ends:
 *
 * <ul>
 *   <li><b>SIGTERM or SIGINT</b> (with {@link KubeletPluginBuilder#closeOnShutdown}, the
 *       default): the JVM's shutdown hook closes the plugin, {@link #awaitTermination()} returns,
 *       and the hook waits up to {@link KubeletPluginBuilder#shutdownGracePeriod} for the
 *       threads that were waiting there, so the code after it in {@code main} (a last log line,
 *       closing the Kubernetes client) runs before the JVM exits.
 *   <li><b>A fatal background error</b> (a socket deleted or replaced): reported to {@link
 *       DraDriver#handleError}, then handled by the {@link FatalErrorPolicy}: by default the
 *       plugin closes, {@link #awaitTermination()} returns and {@link #failure()} holds the
 *       error.
 *   <li><b>{@link #close()}</b> called by the driver, from any thread, including {@link
 *       DraDriver#handleError}.
 * </ul>
 *
 * <pre>{@code
 * try (KubeletPlugin plugin = KubeletPlugin.builder(myDriver)
 *     .driverName("gpu.example.com")
 *     .kubeClient(client)
 *     .nodeName(System.getenv("NODE_NAME"))
 *     .rollingUpdate(System.getenv("POD_UID"))
 *     .start()) {
 *   plugin.awaitTermination();
 * }
 * }</pre>
 *
 * <p>Thread-safe. The plugin owns its sockets, threads, lock file and claim cache; the Kubernetes
 * client and the meter registry are borrowed and stay open.
 */
public final class KubeletPlugin implements AutoCloseable {

  /**
   * The gRPC health service name a DaemonSet's liveness and startup probes ask for ({@code grpc:
   * {port: ..., service: liveness}}), as the reference drivers' charts do. The liveness probe
   * answers it, the empty name and the driver name with the plugin's status.
   */
  public static final String LIVENESS_SERVICE = "liveness";

  /**
   * The gRPC health service name a DaemonSet's readiness probe asks for ({@code grpc: {port:
   * ..., service: readiness}}): SERVING while the plugin serves and every pool of the driver's
   * devices is published; NOT_SERVING before the first successful sync and while publishing
   * fails (see {@link KubeletPluginBuilder#readinessAwaitsSlices}). Liveness does not depend on
   * it: an unpublished pool is not a reason to restart the pod.
   */
  public static final String READINESS_SERVICE = "readiness";

  private static final Logger LOG = LoggerFactory.getLogger(KubeletPlugin.class);

  private final PluginSettings settings;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Counted down when {@link #close()} has finished, not when it starts. */
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
  private volatile List<Thread> released = List.of();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final DriverEvents events;
  /** Writes claim device status; null when off. */
  private final ClaimStatusWriter claimStatus;
  private final SlicePublisher slices;
  /** The devices' health; null when the driver reports none. */
  private final DeviceHealthBoard healthBoard;
  /** The health gauge of every reported device; null when the driver reports none. */
  private final HealthGauges healthGauges;
  /** What the driver publishes through its {@link PluginContext}. */
  private final ContextPublisher contextPublisher;
  private PluginServers servers;
  private Thread shutdownHook;
  private volatile boolean driverStarted;

  private KubeletPlugin(PluginSettings settings) {
    this.settings = settings;
    this.events = new DriverEvents(settings.driverName(), settings.driver(),
        settings.fatalErrorPolicy(), new DriverEvents.PluginControl() {
          @Override
          public void failed(Throwable error) {
            failure.compareAndSet(null, error);
          }

          @Override
          public void close() {
            KubeletPlugin.this.close();
          }

          @Override
          public void exit() {
            exitAfterGracePeriod();
          }
        }, settings.meterRegistry());
    // A client made from the environment is made once the sockets are up; without it the
    // plugin can neither read claims nor publish, which the fatal-error policy then handles.
    settings.kubeClient().whenFailed(error -> events.report(error,
        "make the API client for " + settings.kubeClient().masterUrl()));
    this.healthBoard = settings.health() ? new DeviceHealthBoard() : null;
    this.healthGauges = healthBoard == null ? null
        : new HealthGauges(settings.meterRegistry(), settings.driverName());
    if (healthBoard != null) {
      healthBoard.watchChanges(snapshot -> healthGauges.update(healthBoard.snapshot()));
    }
    this.slices = new SlicePublisher(settings, events::report, healthBoard);
    this.contextPublisher = new ContextPublisher(settings.driverName(), slices, events::report);
    this.claimStatus = settings.claimStatus()
        ? new ClaimStatusWriter(settings.driverName(), settings.kubeClient(),
            settings.apiServerTimeout(), events::report)
        : null;
  }

  /**
   * Starts configuring a plugin for a driver.
   *
   * @param driver the driver's prepare/unprepare implementation
   * @return a builder; finish with {@link KubeletPluginBuilder#start()}
   */
  public static KubeletPluginBuilder builder(DraDriver driver) {
    return new KubeletPluginBuilder(driver);
  }

  static KubeletPlugin start(PluginSettings settings) {
    checkDirectories(settings); // before the driver writes anything
    KubeletPlugin plugin = new KubeletPlugin(settings);
    try {
      plugin.startDriver();
    } catch (RuntimeException | Error e) {
      plugin.closeClaimStatus();
      plugin.events.close();
      throw e;
    }
    try {
      plugin.servers = PluginServers.start(settings, plugin.events::report, plugin.claimStatus,
          plugin::isPublished, plugin.healthBoard);
      // The sockets are up: now make the API client, which nothing before needed.
      settings.kubeClient().begin();
      plugin.contextPublisher.serving();
    } catch (RuntimeException | Error e) {
      plugin.stopDriver();
      plugin.closeClaimStatus();
      plugin.events.close();
      throw e;
    }
    if (settings.closeOnShutdown()) {
      plugin.shutdownHook =
          new Thread(plugin::shutDown, "dra4j-shutdown-" + settings.driverName());
      Runtime.getRuntime().addShutdownHook(plugin.shutdownHook);
    }
    return plugin;
  }

  /**
   * The directories the sockets go to, checked before the driver starts and writes its files
   * (its data directory, CDI specs): a directory the pod does not have stops the start with one
   * line naming it and its setting.
   */
  private static void checkDirectories(PluginSettings settings) {
    if (settings.registrationService()) {
      DirectoryChecks.existing(settings.registrationSocket().getParent(),
          "kubelet plugin registration directory", "KubeletPluginBuilder.registrarDirectory or "
              + PluginEnvironment.REGISTRAR_DIRECTORY);
    }
    if (settings.draService()) {
      DirectoryChecks.creatable(settings.draSocket().getParent(), "plugin data directory",
          DirectoryChecks.PLUGIN_DATA_DIRECTORY_SETTING);
    }
  }

  /** {@link DraDriver#start} before anything serves, so the driver's state is ready. */
  private void startDriver() {
    PluginContext context = new PluginContext(settings.driverName(), settings.nodeName(),
        settings.pluginDataDirectory(), settings.cdiDirectory(), settings.bootIdSource(),
        settings.kubeClient(),
        settings.meterRegistry(), events::report, claimStatus, healthBoard,
        contextPublisher::publish);
    try {
      settings.driver().start(context);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PluginStartException("start driver " + settings.driverName() + ": interrupted", e);
    } catch (Exception e) {
      throw new PluginStartException(
          "start driver " + settings.driverName() + ": " + e.getMessage(), e);
    }
    driverStarted = true;
  }

  /** {@link DraDriver#stop} once nothing serves any more; a throwing driver is only logged. */
  private void stopDriver() {
    if (!driverStarted) {
      return;
    }
    driverStarted = false;
    try {
      settings.driver().stop();
    } catch (RuntimeException e) {
      LOG.warn("DraDriver.stop of {} failed", settings.driverName(), e);
    }
  }

  /**
   * The shutdown hook: closes the plugin, then gives the threads that close released from {@link
   * #awaitTermination()} the grace period to finish what follows it, because the JVM halts as soon
   * as all shutdown hooks are done.
   */
  private void shutDown() {
    close();
    awaitReleasedThreads();
  }

  /**
   * The end of {@link FatalErrorPolicy#EXIT}, started before the plugin closes: a non-daemon
   * thread, so the JVM cannot end with status 0 when {@code main} returns first. It waits until
   * the plugin has closed, then for the threads released from {@link #awaitTermination()} (at most
   * the grace period), then exits with status 1.
   */
  private void exitAfterGracePeriod() {
    Thread exit = new Thread(() -> {
      try {
        terminated.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      awaitReleasedThreads();
      Runtime.getRuntime().exit(1);
    }, "dra4j-exit-" + settings.driverName());
    exit.setDaemon(false);
    exit.start();
  }

  private void awaitReleasedThreads() {
    long deadline = System.nanoTime() + settings.shutdownGracePeriod().toNanos();
    for (Thread thread : released) {
      long left = deadline - System.nanoTime();
      try {
        if (left > 0) {
          thread.join(TimeUnit.NANOSECONDS.toMillis(left) + 1);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (thread.isAlive()) {
        LOG.warn("Thread {} still runs {} after the plugin closed; the JVM exits now",
            thread.getName(), settings.shutdownGracePeriod());
      }
    }
  }

  /**
   * What the kubelet last said about registering this plugin.
   *
   * @return empty until the kubelet has reported, or when registration is off
   */
  public Optional<RegistrationStatus> registrationStatus() {
    return settings.registrationService()
        ? servers.registration().status() : Optional.empty();
  }

  /**
   * Where the driver pushes device health changes.
   *
   * @return the reporter
   * @throws IllegalStateException if the driver does not report device health ({@link
   *     DraDriver#reportsDeviceHealth()} is false)
   */
  public DeviceHealthReporter deviceHealth() {
    return PluginContext.healthOrFail(healthBoard, settings.driverName());
  }

  /**
   * Where the driver reports its devices' status in its claims ({@code status.devices[]}).
   *
   * @return the reporter
   * @throws IllegalStateException if {@link KubeletPluginBuilder#claimStatus(boolean)} is off
   */
  public ClaimStatusReporter claimStatus() {
    return PluginContext.claimStatusOrFail(claimStatus, settings.driverName());
  }

  private void closeClaimStatus() {
    if (claimStatus != null) {
      claimStatus.close();
    }
  }

  /**
   * Publishes the driver's devices as ResourceSlices and keeps them converged. The first call
   * starts the ResourceSlice controller (with this node's Node as owner, waiting for its informer
   * to sync); later calls replace the desired state. Errors while publishing reach {@link
   * DraDriver#handleError} wrapped in {@link RecoverableException}: the controller retries on its
   * own. The caller may change its objects afterwards; the controller keeps a copy.
   *
   * @param resources every pool the driver publishes
   * @throws IllegalStateException {@code no NodeName was set to publish resources} without a node
   *     name, {@code start ResourceSlice controller: <cause>} if the controller cannot start, or
   *     when the plugin is closed
   */
  public void publishResources(DriverResources resources) {
    slices.publish(resources);
  }

  /**
   * Whether every pool of the driver's last {@link #publishResources} is published: what the
   * readiness service ({@value #READINESS_SERVICE}) reports while the plugin serves.
   *
   * @return false before the first publish and its first successful sync, and while a pool's
   *     syncs fail or the API server refuses it; always true with {@link
   *     KubeletPluginBuilder#readinessAwaitsSlices} off
   */
  public boolean isPublished() {
    return !settings.readinessAwaitsSlices() || slices.ready();
  }

  /**
   * Runs an action once every pool of the driver's devices has been published the first time,
   * for example the driver's line that it serves its devices: never log success before it
   * happened. Runs at once on the caller's thread if that is done, otherwise once on the thread
   * that sees it (keep it short). A publish that never succeeds never runs it.
   *
   * @param action what to run
   */
  public void whenPublished(Runnable action) {
    slices.whenPublished(Objects.requireNonNull(action, "action"));
  }

  /**
   * The node this plugin runs on, where it publishes its devices.
   *
   * @return the node name, empty when none was set
   */
  public String nodeName() {
    return settings.nodeName();
  }

  /**
   * Counts of ResourceSlice writes so far.
   *
   * @return creates, updates and deletes; all zero before the first {@link #publishResources}
   */
  public ControllerStats sliceStats() {
    ResourceSliceController controller = slices.controller();
    return controller == null ? new ControllerStats(0, 0, 0) : controller.stats();
  }

  /**
   * Rewrites the device metadata of one request of a prepared claim, for data known only after
   * prepare (for example network details assigned later). The file's generation goes up by one.
   *
   * @param claim the prepared claim
   * @param requestRef the request, {@code req} or {@code req/sub}
   * @param devices the request's devices with their current metadata
   * @throws IOException if device metadata is not enabled, the request has no metadata file ({@code
   *     request "<ref>" not found in prepared claim <ns>/<name>}), or writing fails
   */
  public void updateRequestMetadata(
      ClaimReference claim, String requestRef, List<PreparedDevice> devices) throws IOException {
    if (settings.metadata() == null) {
      throw new IOException("device metadata is not enabled");
    }
    settings.metadata().updateRequest(claim, requestRef, devices);
  }

  /**
   * The gRPC service identifiers advertised to the kubelet, in order.
   *
   * @return for example {@code [v1.DRAPlugin, v1beta1.DRAPlugin]}
   */
  public List<String> supportedServices() {
    return settings.supportedServices();
  }

  /**
   * The registration socket the kubelet discovers.
   *
   * @return its path
   */
  public Path registrationSocket() {
    return settings.registrationSocket();
  }

  /**
   * The DRA service socket (the endpoint the kubelet is told).
   *
   * @return its path
   */
  public Path draSocket() {
    return settings.draSocket();
  }

  /**
   * The TCP port of the liveness probe service.
   *
   * @return the port, or empty if the probe is off
   */
  public OptionalInt livenessPort() {
    LivenessServer liveness = servers.liveness();
    return liveness == null ? OptionalInt.empty() : OptionalInt.of(liveness.port());
  }

  /**
   * The TCP port of the Prometheus metrics endpoint.
   *
   * @return the port, or empty if the endpoint is off
   */
  public OptionalInt metricsPort() {
    PrometheusEndpoint metrics = servers.metrics();
    return metrics == null ? OptionalInt.empty() : OptionalInt.of(metrics.port());
  }

  /**
   * The registry the call timers are in.
   *
   * @return the configured registry, or the plugin's own
   */
  public MeterRegistry meterRegistry() {
    return settings.meterRegistry();
  }

  /**
   * Whether the enabled servers run on their own, intact socket files; what the liveness probe
   * reports.
   *
   * @return true while serving
   */
  public boolean isServing() {
    return !closed.get() && servers.isServing();
  }

  /**
   * Blocks until the plugin is closed, for a driver's main thread. When the plugin was closed by
   * SIGTERM or SIGINT, the JVM's shutdown waits up to {@link
   * KubeletPluginBuilder#shutdownGracePeriod} for this thread to finish what follows (for
   * example closing the Kubernetes client); do not call {@code System.exit} there, which blocks
   * forever while the JVM shuts down.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitTermination() throws InterruptedException {
    Thread self = Thread.currentThread();
    waiting.add(self);
    try {
      terminated.await();
    } finally {
      waiting.remove(self);
    }
  }

  /**
   * The fatal background error that ended the plugin, if one did: the first error reported to
   * {@link DraDriver#handleError} that was not a {@link RecoverableException}.
   *
   * @return the error, or empty while none happened (after a plain {@link #close()} or SIGTERM
   *     too)
   */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(failure.get());
  }

  /**
   * Stops serving and removes the sockets: first the DRA server (in-flight calls are cancelled),
   * then the registration server, then everything else, as the Go helper stops. Errors that happen
   * while closing (the sockets disappearing) are not reported to the driver. Idempotent, and safe
   * from any thread, including {@link DraDriver#handleError}.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    LOG.info("Stopping DRA plugin {}", settings.driverName());
    released = List.copyOf(waiting);
    events.close();
    if (servers != null) {
      servers.close();
    }
    stopDriver();
    closeClaimStatus();
    slices.close();
    if (healthGauges != null) {
      healthGauges.close();
    }
    if (settings.ownsKubeClient()) {
      settings.kubeClient().close();
    }
    removeShutdownHook();
    terminated.countDown();
  }

  private void removeShutdownHook() {
    if (shutdownHook == null || Thread.currentThread() == shutdownHook) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // The JVM is exiting; the hook runs or has run and finds the plugin closed.
    }
  }

}
