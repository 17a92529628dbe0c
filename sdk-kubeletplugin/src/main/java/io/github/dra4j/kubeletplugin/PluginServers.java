package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.internal.EpollEventLoops;
import io.github.dra4j.kubeletplugin.internal.claims.ApiCallLimit;
import io.github.dra4j.kubeletplugin.internal.claims.ApiServerClaimSource;
import io.github.dra4j.kubeletplugin.internal.claims.CachedClaimSource;
import io.github.dra4j.kubeletplugin.internal.claims.ClaimSource;
import io.github.dra4j.kubeletplugin.internal.grpc.HandlerPool;
import io.github.dra4j.kubeletplugin.internal.health.DeviceHealthBoard;
import io.github.dra4j.kubeletplugin.internal.health.HealthStreamService;
import io.github.dra4j.kubeletplugin.internal.liveness.LivenessServer;
import io.github.dra4j.kubeletplugin.internal.observability.ClaimMeters;
import io.github.dra4j.kubeletplugin.internal.status.ClaimStatusWriter;
import io.github.dra4j.metrics.JvmMetrics;
import io.github.dra4j.metrics.PrometheusEndpoint;
import io.github.dra4j.kubeletplugin.internal.node.NodeService;
import io.github.dra4j.kubeletplugin.internal.node.NodeServiceDefinitions;
import io.github.dra4j.kubeletplugin.internal.observability.CallObserver;
import io.github.dra4j.kubeletplugin.internal.registration.RegistrationService;
import io.github.dra4j.kubeletplugin.internal.serialize.CallSerializer;
import io.github.dra4j.kubeletplugin.internal.serialize.FileLockSerializer;
import io.github.dra4j.kubeletplugin.internal.server.FatalErrors;
import io.github.dra4j.kubeletplugin.internal.server.ServerGuard;
import io.github.dra4j.kubeletplugin.internal.socket.SocketProbe;
import io.github.dra4j.kubeletplugin.internal.socket.SocketWatch;
import io.github.dra4j.kubeletplugin.internal.socket.UnixSocketServer;
import io.grpc.ServerInterceptor;
import io.grpc.ServerServiceDefinition;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a running plugin serves with, started in the Go helper's order: threads, the DRA
 * server (first, so it is ready before the kubelet learns about it from the registration socket),
 * the registration server, the liveness probe, the health refresh and the socket watch. Only then
 * does start-up wait on the API server (the claim cache's first list), so the sockets are up
 * however slow the API server is; until the cache is filled, claims are read with a GET. Closing
 * stops the DRA server, then the registration server, then the rest in reverse order of creation.
 * Owned by one {@link KubeletPlugin}; start and close are not called concurrently.
 */
final class PluginServers implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PluginServers.class);

  private final PluginSettings settings;
  private final BiConsumer<Throwable, String> errors;
  private final FatalErrors fatal;
  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private volatile boolean closed;
  /** The plugin's health board (borrowed); null when the driver reports no health. */
  private final DeviceHealthBoard healthBoard;
  private RegistrationService registration;
  private UnixSocketServer draServer;
  private UnixSocketServer registrationServer;
  private LivenessServer liveness;
  private PrometheusEndpoint metrics;
  private final ClaimStatusWriter claimStatus;
  private final BooleanSupplier published;
  private CachedClaimSource claimCache;

  private PluginServers(PluginSettings settings, BiConsumer<Throwable, String> errors,
      ClaimStatusWriter claimStatus, BooleanSupplier published, DeviceHealthBoard healthBoard) {
    this.settings = settings;
    this.healthBoard = healthBoard;
    this.published = published;
    this.errors = errors;
    this.fatal = new FatalErrors(errors);
    this.claimStatus = claimStatus;
  }

  /**
   * Starts serving; on failure everything started so far is stopped again.
   *
   * @param settings the resolved options
   * @param errors where background errors go (the driver's handler, on its own thread)
   * @param claimStatus clears a claim's device status after its unprepare; null when off
   *     (borrowed)
   * @param published whether the driver's devices are published, for the readiness service
   * @param healthBoard the device health the health service streams; null when the driver
   *     reports none (borrowed)
   * @return the running servers
   * @throws PluginStartException naming what could not start
   */
  static PluginServers start(PluginSettings settings, BiConsumer<Throwable, String> errors,
      ClaimStatusWriter claimStatus, BooleanSupplier published, DeviceHealthBoard healthBoard) {
    PluginServers servers =
        new PluginServers(settings, errors, claimStatus, published, healthBoard);
    try {
      servers.startServing();
      servers.awaitClaimCache();
      return servers;
    } catch (RuntimeException | Error e) {
      servers.close();
      throw e;
    }
  }

  private void startServing() {
    LOG.info("Starting DRA plugin: {}", settings.describe());
    // An event loop that ends, or a thread of the plugin that dies of a JVM error, is fatal: the
    // plugin would otherwise hold its sockets and answer nothing.
    EpollEventLoops loops = own(new EpollEventLoops(2,
        fatal.essentialThreads("dra4j-" + settings.driverName())));
    fatal.watch(loops.group());
    ExecutorService handlers = HandlerPool.create(fatal.workerThreads("dra4j-grpc"));
    own(() -> {
      // Let handlers still answering a cancelled call finish before the event loops stop, so
      // their late writes do not hit a shut-down event loop.
      handlers.shutdownNow();
      handlers.awaitTermination(2, TimeUnit.SECONDS);
    });
    ScheduledExecutorService timers =
        Executors.newSingleThreadScheduledExecutor(new DaemonThreads("dra4j-timer"));
    own(timers::shutdownNow);

    List<ServerInterceptor> interceptors = new ArrayList<>();
    interceptors.add(
        new CallObserver(settings.driverName(), settings.meterRegistry(), settings.logCalls()));
    interceptors.addAll(settings.interceptors());
    // The SDK's own interceptor and services never block in a call's start or completion; a
    // user's interceptor might, so with one every step of a call runs on the handler threads.
    UnixSocketServer.Settings socketSettings = new UnixSocketServer.Settings(
        loops, handlers, interceptors, settings.interceptors().isEmpty(),
        settings.socketPermissions(),
        new SocketProbe(loops.group(), Duration.ofSeconds(1)), fatal);
    List<SocketWatch.Watched> watched = new ArrayList<>();

    if (healthBoard != null) {
      long refresh = settings.healthRefreshInterval().toMillis();
      timers.scheduleAtFixedRate(healthBoard::republish, refresh, refresh, TimeUnit.MILLISECONDS);
    }
    if (settings.draService()) {
      draServer = own(listen("start DRA service: ", settings.draSocket(), draServices(),
          socketSettings, guard("dra", "DRA socket " + settings.draSocket(),
              settings.draSocketLimits())));
      watched.add(new SocketWatch.Watched(draServer, "DRA gRPC server failed"));
    }
    registration = new RegistrationService(
        settings.driverName(), settings.draSocket().toString(), settings.supportedServices());
    if (settings.registrationService()) {
      registrationServer = own(listen("start registrar: start gRPC server: ",
          settings.registrationSocket(), List.of(registration.bindService()), socketSettings,
          guard("registration", "registration socket " + settings.registrationSocket(),
              settings.registrationSocketLimits())));
      watched.add(new SocketWatch.Watched(registrationServer, "registrar gRPC server failed"));
    }
    if (settings.livenessAddress() != null) {
      try {
        liveness = own(LivenessServer.start(settings.livenessAddress(), settings.driverName(),
            this::isServing, published, loops, handlers, guard("liveness",
                "liveness probe on TCP " + hostAndPort(settings.livenessAddress()),
                settings.livenessProbeLimits())));
      } catch (IOException e) {
        throw new PluginStartException(
            "start liveness probe: listen on " + settings.livenessAddress() + ": " + e.getMessage(),
            e);
      }
    }
    if (settings.jvmMetrics()) {
      own(JvmMetrics.bindTo(settings.meterRegistry()));
    }
    if (settings.metricsAddress() != null) {
      try {
        metrics = own(PrometheusEndpoint.builder(settings.prometheusRegistry())
            .address(settings.metricsAddress()).path(settings.metricsPath()).start());
      } catch (IOException e) {
        throw new PluginStartException("start metrics endpoint: listen on "
            + settings.metricsAddress() + ": " + e.getMessage(), e);
      }
    }
    long check = settings.socketCheckInterval().toMillis();
    SocketWatch watch = new SocketWatch(watched, errors);
    timers.scheduleWithFixedDelay(watch, check, check, TimeUnit.MILLISECONDS);
    LOG.info("DRA plugin {} serving on {} (registration {}{}{})", settings.driverName(),
        settings.draSocket(), settings.registrationSocket(),
        liveness == null ? "" : "; liveness probe on port " + liveness.port(),
        metrics == null ? "" : "; metrics on port " + metrics.port());
  }

  private List<ServerServiceDefinition> draServices() {
    // Reads that reach the API server are capped, so that they never hold every handler thread.
    ClaimSource claims = own(new ApiCallLimit(new ApiServerClaimSource(settings.kubeClient()),
        ApiCallLimit.CALLS, settings.kubeClient().masterUrl()));
    if (settings.claimCache()) {
      claimCache = own(new CachedClaimSource(settings.kubeClient().get(), claims));
      claims = claimCache;
    }
    CallSerializer serializer = own(serializer());
    NodeService node = new NodeService(settings.driver(), claims, serializer,
        settings.maxClaimsPerCall(), settings.metadata(),
        method -> CallContext.ofCurrentCall(method, settings.nodeName(),
            settings.pluginDataDirectory()),
        new ClaimMeters(settings.meterRegistry(), settings.driverName()),
        claimStatus == null ? ref -> { } : claimStatus::clear);
    List<ServerServiceDefinition> services = new ArrayList<>();
    if (settings.nodeV1()) {
      services.add(NodeServiceDefinitions.v1(node));
    }
    if (settings.nodeV1beta1()) {
      services.add(NodeServiceDefinitions.v1beta1(node));
    }
    if (healthBoard != null) {
      HealthStreamService health = new HealthStreamService(healthBoard,
          settings.healthRefreshInterval(), settings.meterRegistry(), settings.driverName());
      services.add(health.definition(ServiceNames.HEALTH_V1));
      services.add(health.definition(ServiceNames.HEALTH_V1ALPHA1));
    }
    return services;
  }

  /** Waits for the claim cache's first list, once the sockets are up. */
  private void awaitClaimCache() {
    if (claimCache == null) {
      return;
    }
    try {
      claimCache.awaitFirstList(settings.apiServerTimeout());
    } catch (IllegalStateException e) {
      throw new PluginStartException(e.getMessage() + " (API server "
          + settings.kubeClient().masterUrl() + " from " + settings.kubeClient().origin()
          + "; option apiServerTimeout is "
          + settings.apiServerTimeout() + ")", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PluginStartException("claim cache: interrupted while waiting for the first list"
          + " of ResourceClaims", e);
    }
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

  private static String hostAndPort(InetSocketAddress address) {
    String host = address.getAddress() == null ? address.getHostString()
        : address.getAddress().getHostAddress();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
  }

  private ServerGuard guard(String server, String description, ServerLimits limits) {
    return new ServerGuard(server, description, limits, fatal, settings.meterRegistry(),
        settings.driverName());
  }

  private static UnixSocketServer listen(String prefix, Path path,
      List<ServerServiceDefinition> services, UnixSocketServer.Settings socketSettings,
      ServerGuard guard) {
    try {
      return UnixSocketServer.start(path, services, socketSettings, guard);
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

  RegistrationService registration() {
    return registration;
  }

  PrometheusEndpoint metrics() {
    return metrics;
  }

  LivenessServer liveness() {
    return liveness;
  }

  /**
   * Whether the enabled servers run on their own, intact socket files, and no fatal error (an
   * event loop ended, a JVM error while serving) has broken them.
   */
  boolean isServing() {
    return !closed && !fatal.failed()
        && (draServer == null || draServer.isServing())
        && (registrationServer == null || registrationServer.isServing());
  }

  @Override
  public void close() {
    closed = true;
    fatal.stopping();
    closeQuietly(draServer);
    closeQuietly(registrationServer);
    List<AutoCloseable> rest;
    synchronized (resources) {
      rest = new ArrayList<>(resources);
      resources.clear();
    }
    rest.forEach(PluginServers::closeQuietly);
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
}
