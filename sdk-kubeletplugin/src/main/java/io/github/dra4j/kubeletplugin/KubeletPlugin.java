package io.github.dra4j.kubeletplugin;

import io.github.dra4j.kubeletplugin.claims.ApiServerClaimSource;
import io.github.dra4j.kubeletplugin.claims.CachedClaimSource;
import io.github.dra4j.kubeletplugin.claims.ClaimSource;
import io.github.dra4j.kubeletplugin.health.DeviceHealthBoard;
import io.github.dra4j.kubeletplugin.health.HealthStreamService;
import io.github.dra4j.kubeletplugin.liveness.LivenessServer;
import io.github.dra4j.kubeletplugin.node.NodeService;
import io.github.dra4j.kubeletplugin.node.NodeServiceDefinitions;
import io.github.dra4j.kubeletplugin.observability.CallObserver;
import io.github.dra4j.kubeletplugin.registration.RegistrationService;
import io.github.dra4j.kubeletplugin.serialize.CallSerializer;
import io.github.dra4j.kubeletplugin.serialize.FileLockSerializer;
import io.github.dra4j.kubeletplugin.socket.EpollEventLoops;
import io.github.dra4j.kubeletplugin.socket.SocketProbe;
import io.github.dra4j.kubeletplugin.socket.SocketWatch;
import io.github.dra4j.kubeletplugin.socket.UnixSocketServer;
import io.github.dra4j.resourceslice.ControllerStats;
import io.github.dra4j.resourceslice.DriverResources;
import io.github.dra4j.resourceslice.ResourceSliceController;
import io.grpc.ServerInterceptor;
import io.grpc.ServerServiceDefinition;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running DRA kubelet plugin: the Java counterpart of the Go helper returned by {@code
 * kubeletplugin.Start}.
 *
 * <p>Start one with {@link #builder(DraDriver)}. It serves the DRA services (v1 and v1beta1, and
 * device health when the driver reports it) on the DRA socket and plugin registration on the
 * registration socket, which the kubelet discovers. {@link #close()} (also run on SIGTERM/SIGINT
 * by default) stops both servers and removes their sockets, which deregisters the plugin.
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

  private static final Logger LOG = LoggerFactory.getLogger(KubeletPlugin.class);

  private final PluginSettings settings;
  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Object terminated = new Object();
  private DeviceHealthBoard healthBoard;
  private RegistrationService registration;
  private UnixSocketServer draServer;
  private UnixSocketServer registrationServer;
  private LivenessServer liveness;
  private Thread shutdownHook;
  private final SlicePublisher slices;

  private KubeletPlugin(PluginSettings settings) {
    this.settings = settings;
    this.slices = new SlicePublisher(settings);
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
    KubeletPlugin plugin = new KubeletPlugin(settings);
    try {
      plugin.startServing();
      return plugin;
    } catch (RuntimeException | Error e) {
      plugin.close();
      throw e;
    }
  }

  private void startServing() {
    LOG.info("Starting DRA plugin {} (services {})", settings.driverName(),
        settings.supportedServices());
    EpollEventLoops loops = own(new EpollEventLoops(2, "dra4j-" + settings.driverName()));
    ExecutorService handlers = Executors.newCachedThreadPool(daemonThreads("dra4j-grpc"));
    own(handlers::shutdownNow);
    ScheduledExecutorService timers =
        Executors.newSingleThreadScheduledExecutor(daemonThreads("dra4j-timer"));
    own(timers::shutdownNow);

    List<ServerInterceptor> interceptors = new ArrayList<>();
    interceptors.add(
        new CallObserver(settings.driverName(), settings.meterRegistry(), settings.logCalls()));
    interceptors.addAll(settings.interceptors());
    UnixSocketServer.Settings socketSettings = new UnixSocketServer.Settings(
        loops, handlers, interceptors, settings.socketPermissions(),
        new SocketProbe(loops.group(), Duration.ofSeconds(1)));
    List<SocketWatch.Watched> watched = new ArrayList<>();

    if (settings.health()) {
      healthBoard = new DeviceHealthBoard();
      long refresh = settings.healthRefreshInterval().toMillis();
      timers.scheduleAtFixedRate(healthBoard::republish, refresh, refresh, TimeUnit.MILLISECONDS);
    }
    if (settings.draService()) {
      draServer = own(listen("start DRA service: ", settings.draSocket(), draServices(),
          socketSettings));
      watched.add(new SocketWatch.Watched(draServer, "DRA gRPC server failed"));
    }
    registration = new RegistrationService(
        settings.driverName(), settings.draSocket().toString(), settings.supportedServices());
    if (settings.registrationService()) {
      registrationServer = own(listen("start registrar: start gRPC server: ",
          settings.registrationSocket(), List.of(registration.bindService()), socketSettings));
      watched.add(new SocketWatch.Watched(registrationServer, "registrar gRPC server failed"));
    }
    if (settings.livenessAddress() != null) {
      try {
        liveness = own(LivenessServer.start(settings.livenessAddress(), settings.driverName(),
            this::isServing, loops, handlers));
      } catch (IOException e) {
        throw new PluginStartException(
            "start liveness probe: listen on " + settings.livenessAddress() + ": " + e.getMessage(),
            e);
      }
    }
    long check = settings.socketCheckInterval().toMillis();
    SocketWatch watch = new SocketWatch(watched, settings.driver()::handleError);
    timers.scheduleWithFixedDelay(watch, check, check, TimeUnit.MILLISECONDS);
    if (settings.closeOnShutdown()) {
      shutdownHook = new Thread(this::close, "dra4j-shutdown-" + settings.driverName());
      Runtime.getRuntime().addShutdownHook(shutdownHook);
    }
    LOG.info("DRA plugin {} serving on {} (registration {})", settings.driverName(),
        settings.draSocket(), settings.registrationSocket());
  }

  private List<ServerServiceDefinition> draServices() {
    ClaimSource claims = own(new ApiServerClaimSource(settings.kubeClient()));
    if (settings.claimCache()) {
      claims = own(new CachedClaimSource(settings.kubeClient(), claims, Duration.ofSeconds(60)));
    }
    CallSerializer serializer = own(serializer());
    NodeService node = new NodeService(settings.driver(), claims, serializer,
        settings.maxClaimsPerCall(), settings.metadata());
    List<ServerServiceDefinition> services = new ArrayList<>();
    if (settings.nodeV1()) {
      services.add(NodeServiceDefinitions.v1(node));
    }
    if (settings.nodeV1beta1()) {
      services.add(NodeServiceDefinitions.v1beta1(node));
    }
    if (healthBoard != null) {
      HealthStreamService health = new HealthStreamService(healthBoard);
      services.add(health.definition(HealthStreamService.V1_SERVICE));
      services.add(health.definition(HealthStreamService.V1ALPHA1_SERVICE));
    }
    return services;
  }

  private CallSerializer serializer() {
    if (!settings.serialize()) {
      return CallSerializer.none();
    }
    if (settings.lockDirectory() == null) {
      return CallSerializer.inProcess();
    }
    try {
      return new FileLockSerializer(settings.lockDirectory());
    } catch (IOException e) {
      throw new PluginStartException(e.getMessage(), e);
    }
  }

  private static UnixSocketServer listen(String prefix, Path path,
      List<ServerServiceDefinition> services, UnixSocketServer.Settings socketSettings) {
    try {
      return UnixSocketServer.start(path, services, socketSettings);
    } catch (IOException e) {
      throw new PluginStartException(
          prefix + "listen on \"" + path + "\": " + e.getMessage(), e);
    }
  }

  private <T extends AutoCloseable> T own(T resource) {
    synchronized (resources) {
      resources.push(resource);
    }
    return resource;
  }

  /**
   * What the kubelet last said about registering this plugin.
   *
   * @return empty until the kubelet has reported, or when registration is off
   */
  public Optional<RegistrationStatus> registrationStatus() {
    return settings.registrationService() ? registration.status() : Optional.empty();
  }

  /**
   * Where the driver pushes device health changes.
   *
   * @return the reporter
   * @throws IllegalStateException if the driver does not report device health ({@link
   *     DraDriver#reportsDeviceHealth()} is false)
   */
  public DeviceHealthReporter deviceHealth() {
    if (healthBoard == null) {
      throw new IllegalStateException(
          "driver " + settings.driverName() + " does not report device health; return true from"
              + " DraDriver.reportsDeviceHealth() to enable the health service");
    }
    return healthBoard;
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
    return liveness == null ? OptionalInt.empty() : OptionalInt.of(liveness.port());
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
    if (closed.get()) {
      return false;
    }
    return (draServer == null || draServer.isServing())
        && (registrationServer == null || registrationServer.isServing());
  }

  /**
   * Blocks until the plugin is closed, for a driver's main thread.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitTermination() throws InterruptedException {
    synchronized (terminated) {
      while (!closed.get()) {
        terminated.wait();
      }
    }
  }

  /**
   * Stops serving and removes the sockets: first the DRA server (in-flight calls are cancelled),
   * then the registration server, then everything else. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    LOG.info("Stopping DRA plugin {}", settings.driverName());
    // DRA server first, registration second (rule B11); both were created in that order and
    // resources close in reverse, so close them explicitly first.
    closeQuietly(draServer);
    closeQuietly(registrationServer);
    closeQuietly(slices);
    List<AutoCloseable> rest;
    synchronized (resources) {
      rest = new ArrayList<>(resources);
      resources.clear();
    }
    rest.forEach(KubeletPlugin::closeQuietly);
    removeShutdownHook();
    synchronized (terminated) {
      terminated.notifyAll();
    }
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

  private static void closeQuietly(AutoCloseable resource) {
    if (resource == null) {
      return;
    }
    try {
      resource.close();
    } catch (Exception e) {
      LOG.warn("Error while stopping: {}", e.toString());
    }
  }

  private static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
