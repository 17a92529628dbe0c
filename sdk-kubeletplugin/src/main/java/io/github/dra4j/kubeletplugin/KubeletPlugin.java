package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.stability.KubernetesAlpha;
import io.github.dra4j.kubeletplugin.internal.publish.DevicePublishing;
import io.github.dra4j.kubeletplugin.internal.publish.SlicePublisher;
import io.github.dra4j.kubeletplugin.internal.runtime.DriverEvents;
import io.github.dra4j.kubeletplugin.internal.runtime.PluginServers;
import io.github.dra4j.kubeletplugin.internal.runtime.PluginShutdown;
import io.github.dra4j.kubeletplugin.internal.setup.PluginSetup;
import io.github.dra4j.kubeletplugin.internal.status.ClaimStatusWriter;
import io.github.dra4j.resourceclaim.ClaimReference;
import io.github.dra4j.resourceslice.ControllerStats;
import io.github.dra4j.resourceslice.DriverResources;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
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
 *   <li><b>SIGTERM or SIGINT</b> (with {@link ShutdownOptions#closeOnShutdown()}, the
 *       default): the JVM's shutdown hook closes the plugin, {@link #awaitTermination()} returns,
 *       and the hook waits up to {@link ShutdownOptions#gracePeriod()} for the threads that were
 *       waiting there, so the code after it in {@code main} (a last log line, closing the
 *       Kubernetes client) runs before the JVM exits.
 *   <li><b>A fatal background error</b> (a socket deleted or replaced): reported to {@link
 *       DraDriver#handleError}, then handled by the {@link FatalErrorPolicy}: by default the
 *       plugin closes, {@link #awaitTermination()} returns and {@link #failure()} holds the
 *       error.
 *   <li><b>{@link #close()}</b> called by the driver, from any thread, including {@link
 *       DraDriver#handleError}.
 * </ul>
 *
 * <p>A driver's {@code main} is shown in the {@linkplain io.github.dra4j.kubeletplugin package}
 * documentation.
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
   * fails (see {@link ObservabilityOptions#readinessAwaitsSlices()}). Liveness does not depend on
   * it: an unpublished pool is not a reason to restart the pod.
   */
  public static final String READINESS_SERVICE = "readiness";

  private static final Logger LOG = LoggerFactory.getLogger(KubeletPlugin.class);

  private final PluginSetup settings;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final PluginShutdown shutdown;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final DriverEvents events;
  /** Writes claim device status; null when off. */
  private final ClaimStatusWriter claimStatus;
  /** The devices' health and slices. */
  private final DevicePublishing devices;
  private final SlicePublisher slices;
  private PluginServers servers;
  private volatile boolean driverStarted;

  private KubeletPlugin(PluginSetup settings) {
    this.settings = settings;
    this.shutdown = new PluginShutdown(settings.driverName(), settings.options().shutdown());
    this.events = new DriverEvents(settings.driverName(), settings.options().driver(),
        settings.options().shutdown().fatalErrorPolicy(), new DriverEvents.PluginControl(
            error -> failure.compareAndSet(null, error), this::close,
            shutdown::exitAfterGracePeriod),
        settings.meterRegistry());
    // A client made from the environment is made once the sockets are up; without it the
    // plugin can neither read claims nor publish, which the fatal-error policy then handles.
    settings.kubeClient().whenFailed(error -> events.report(error,
        "make the API client for " + settings.kubeClient().masterUrl()));
    this.devices = new DevicePublishing(settings, events::report);
    this.slices = devices.slices();
    this.claimStatus = settings.options().apiServer().claimStatus()
        ? new ClaimStatusWriter(settings.driverName(), settings.kubeClient(),
            settings.options().apiServer().timeout(), events::report)
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

  static KubeletPlugin start(PluginSetup settings) {
    settings.checkDirectories(); // before the driver writes anything
    KubeletPlugin plugin = new KubeletPlugin(settings);
    try {
      plugin.startDriver();
      plugin.servers = PluginServers.start(settings,
          method -> CallContext.ofCurrentCall(method, settings.nodeName(),
              settings.pluginDataDirectory()),
          plugin.events::report, plugin.claimStatus, plugin::isPublished, plugin.devices.health());
      // The sockets are up: now make the API client, which nothing before needed.
      settings.kubeClient().begin();
      plugin.devices.context().serving();
    } catch (RuntimeException | Error e) {
      plugin.stopDriver(); // if it started
      plugin.closeClaimStatus();
      plugin.events.close();
      throw e;
    }
    plugin.shutdown.installHook(plugin::close);
    return plugin;
  }

  /** {@link DraDriver#start} before anything serves, so the driver's state is ready. */
  private void startDriver() {
    PluginContext context = new PluginContext(settings.driverName(), settings.nodeName(),
        settings.pluginDataDirectory(), settings.cdiDirectory(),
        settings.options().deployment().bootIdSource(),
        settings.kubeClient(),
        settings.meterRegistry(), events::report, claimStatus, devices.health(),
        devices.context()::publish);
    try {
      settings.options().driver().start(context);
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
      settings.options().driver().stop();
    } catch (RuntimeException e) {
      LOG.warn("DraDriver.stop of {} failed", settings.driverName(), e);
    }
  }

  /**
   * What the kubelet last said about registering this plugin.
   *
   * @return empty until the kubelet has reported, or when registration is off
   */
  public Optional<RegistrationStatus> registrationStatus() {
    return settings.options().services().registrationService()
        ? servers.registration().status() : Optional.empty();
  }

  /**
   * Where the driver pushes device health changes.
   *
   * @return the reporter
   * @throws IllegalStateException if the driver does not report device health ({@link
   *     DraDriver#reportsDeviceHealth()} is false)
   */
  @KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
  public DeviceHealthReporter deviceHealth() {
    return PluginContext.healthOrFail(devices.health(), settings.driverName());
  }

  /**
   * Where the driver reports its devices' status in its claims ({@code status.devices[]}).
   *
   * @return the reporter
   * @throws IllegalStateException if claim status is off ({@link ApiServerOptions#claimStatus()})
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
   * starts the ResourceSlice controller (the Node as owner, waiting for its informer to sync);
   * later calls replace the desired state. Errors while publishing reach {@link
   * DraDriver#handleError} as {@link RecoverableException}s: the controller retries on its own.
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
   *     ObservabilityOptions#readinessAwaitsSlices()} off
   */
  public boolean isPublished() {
    return !settings.options().observability().readinessAwaitsSlices() || slices.ready();
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
    return slices.stats();
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
    return servers.livenessPort();
  }

  /**
   * The TCP port of the Prometheus metrics endpoint.
   *
   * @return the port, or empty if the endpoint is off
   */
  public OptionalInt metricsPort() {
    return servers.metricsPort();
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
   * SIGTERM or SIGINT, the JVM's shutdown waits up to {@link ShutdownOptions#gracePeriod()} for
   * this thread to finish what follows (for example closing the Kubernetes client); do not call
   * {@code System.exit} there, which blocks forever while the JVM shuts down.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitTermination() throws InterruptedException {
    shutdown.awaitTermination();
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
    shutdown.closing();
    events.close();
    if (servers != null) {
      servers.close();
    }
    stopDriver();
    closeClaimStatus();
    devices.close();
    if (settings.ownsKubeClient()) {
      settings.kubeClient().close();
    }
    shutdown.closed();
  }
}
