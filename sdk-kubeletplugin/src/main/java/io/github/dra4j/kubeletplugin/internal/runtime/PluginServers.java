package io.github.dra4j.kubeletplugin.internal.runtime;

import io.github.dra4j.core.thread.DaemonThreads;
import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubelet.wire.internal.EpollEventLoops;
import io.github.dra4j.kubeletplugin.ApiServerOptions;
import io.github.dra4j.kubeletplugin.CallContext;
import io.github.dra4j.kubeletplugin.ObservabilityOptions;
import io.github.dra4j.kubeletplugin.PluginStartException;
import io.github.dra4j.kubeletplugin.ServerLimits;
import io.github.dra4j.kubeletplugin.ServiceOptions;
import io.github.dra4j.kubeletplugin.SocketOptions;
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
import io.github.dra4j.kubeletplugin.internal.setup.Deployment;
import io.github.dra4j.kubeletplugin.internal.setup.PluginSetup;
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
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a running plugin serves with, started in the Go helper's order: threads, the DRA
 * server (first, so it is ready before the kubelet learns about it from the registration socket),
 * the registration server, the liveness probe, the health refresh and the socket watch. Only then
 * does start-up wait on the API server (the claim cache's first list), so the sockets are up
 * however slow the API server is; until the cache is filled, claims are read with a GET. Closing
 * stops the DRA server, then the registration server, then the rest in reverse order of creation.
 * Owned by one {@code KubeletPlugin}; start and close are not called concurrently.
 */
public final class PluginServers implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(PluginServers.class);

  private final PluginSetup setup;
  private final Deployment deployment;
  private final SocketOptions sockets;
  private final ServiceOptions services;
  private final ApiServerOptions apiServer;
  private final ObservabilityOptions observability;
  private final Function<String, CallContext> callContext;
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

  private PluginServers(PluginSetup setup, Function<String, CallContext> callContext,
      BiConsumer<Throwable, String> errors, ClaimStatusWriter claimStatus,
      BooleanSupplier published, DeviceHealthBoard healthBoard) {
    this.setup = setup;
    this.deployment = setup.options().deployment();
    this.sockets = setup.options().sockets();
    this.services = setup.options().services();
    this.apiServer = setup.options().apiServer();
    this.observability = setup.options().observability();
    this.callContext = callContext;
    this.healthBoard = healthBoard;
    this.published = published;
    this.errors = errors;
    this.fatal = new FatalErrors(errors);
    this.claimStatus = claimStatus;
  }

  /**
   * Starts serving; on failure everything started so far is stopped again.
   *
   * @param setup the resolved options; the servers read the groups of sockets, services,
   *     serialization, API server, observability and health
   * @param callContext the context of the current call, by method, for the driver
   * @param errors where background errors go (the driver's handler, on its own thread)
   * @param claimStatus clears a claim's device status after its unprepare; null when off
   *     (borrowed)
   * @param published whether the driver's devices are published, for the readiness service
   * @param healthBoard the device health the health service streams; null when the driver
   *     reports none (borrowed)
   * @return the running servers
   * @throws PluginStartException naming what could not start
   */
  public static PluginServers start(PluginSetup setup, Function<String, CallContext> callContext,
      BiConsumer<Throwable, String> errors, ClaimStatusWriter claimStatus,
      BooleanSupplier published, DeviceHealthBoard healthBoard) {
    PluginServers servers = new PluginServers(setup, callContext, errors, claimStatus, published,
        healthBoard);
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
    LOG.info("Starting DRA plugin: {}", setup.describe());
    // An event loop that ends, or a thread of the plugin that dies of a JVM error, is fatal: the
    // plugin would otherwise hold its sockets and answer nothing.
    EpollEventLoops loops = own(new EpollEventLoops(2,
        fatal.essentialThreads("dra4j-" + setup.driverName())));
    fatal.watch(loops.group());
    ExecutorService handlers = HandlerPool.create(fatal.workerThreads("dra4j-grpc"));
    own(() -> {
      // Let handlers still answering a cancelled call finish before the event loops stop, so
      // their late writes do not hit a shut-down event loop.
      handlers.shutdownNow();
      handlers.awaitTermination(2, TimeUnit.SECONDS);
    });
    ScheduledExecutorService timers = Executors
        .newSingleThreadScheduledExecutor(new DaemonThreads("dra4j-timer"));
    own(timers::shutdownNow);

    List<ServerInterceptor> interceptors = new ArrayList<>();
    interceptors.add(
        new CallObserver(setup.driverName(), setup.meterRegistry(), observability.logCalls()));
    interceptors.addAll(setup.options().interceptors());
    // The SDK's own interceptor and services never block in a call's start or completion; a
    // user's interceptor might, so with one every step of a call runs on the handler threads.
    UnixSocketServer.Settings socketSettings = new UnixSocketServer.Settings(
        loops, handlers, interceptors, setup.options().interceptors().isEmpty(),
        sockets.permissions(),
        new SocketProbe(loops.group(), Duration.ofSeconds(1)), fatal);
    List<SocketWatch.Watched> watched = new ArrayList<>();

    if (healthBoard != null) {
      long refresh = setup.options().health().refreshInterval().toMillis();
      // Stopped with the timers at shutdown, not through this future.
      var unused = timers.scheduleAtFixedRate(healthBoard::republish, refresh, refresh,
          TimeUnit.MILLISECONDS);
    }
    if (services.draService()) {
      draServer = own(listen("start DRA service: ", setup.draSocket(), draServices(),
          socketSettings, guard("dra", "DRA socket " + setup.draSocket(),
              sockets.draLimits())));
      watched.add(new SocketWatch.Watched(draServer, "DRA gRPC server failed"));
    }
    registration = new RegistrationService(
        setup.driverName(), setup.draSocket().toString(), setup.supportedServices());
    if (services.registrationService()) {
      registrationServer = own(listen("start registrar: start gRPC server: ",
          setup.registrationSocket(), List.of(registration.bindService()), socketSettings,
          guard("registration", "registration socket " + setup.registrationSocket(),
              sockets.registrationLimits())));
      watched.add(new SocketWatch.Watched(registrationServer, "registrar gRPC server failed"));
    }
    if (deployment.livenessAddress() != null) {
      try {
        liveness = own(LivenessServer.start(deployment.livenessAddress(), setup.driverName(),
            this::isServing, published, loops, handlers, guard("liveness",
                "liveness probe on TCP " + hostAndPort(deployment.livenessAddress()),
                observability.livenessProbeLimits())));
      } catch (IOException e) {
        throw new PluginStartException("start liveness probe: listen on "
            + deployment.livenessAddress() + ": " + e.getMessage(), e);
      }
    }
    if (observability.jvmMetrics()) {
      own(JvmMetrics.bindTo(setup.meterRegistry()));
    }
    if (deployment.metricsAddress() != null) {
      try {
        metrics = own(PrometheusEndpoint.builder(setup.prometheusRegistry())
            .address(deployment.metricsAddress()).path(observability.metricsPath()).start());
      } catch (IOException e) {
        throw new PluginStartException("start metrics endpoint: listen on "
            + deployment.metricsAddress() + ": " + e.getMessage(), e);
      }
    }
    long check = sockets.checkInterval().toMillis();
    SocketWatch watch = new SocketWatch(watched, errors);
    // Stopped with the timers at shutdown, not through this future.
    var unusedWatch = timers.scheduleWithFixedDelay(watch, check, check, TimeUnit.MILLISECONDS);
    LOG.info("DRA plugin {} serving on {} (registration {}{}{})", setup.driverName(),
        setup.draSocket(), setup.registrationSocket(),
        liveness == null ? "" : "; liveness probe on port " + liveness.port(),
        metrics == null ? "" : "; metrics on port " + metrics.port());
  }

  private List<ServerServiceDefinition> draServices() {
    // Reads that reach the API server are capped, so that they never hold every handler thread.
    ClaimSource claims = own(new ApiCallLimit(new ApiServerClaimSource(setup.kubeClient()),
        ApiCallLimit.CALLS, setup.kubeClient().masterUrl()));
    if (apiServer.claimCache()) {
      claimCache = own(new CachedClaimSource(setup.kubeClient().get(), claims));
      claims = claimCache;
    }
    CallSerializer serializer = own(serializer());
    NodeService node = new NodeService(setup.options().driver(), claims, serializer,
        services.maxClaimsPerCall(), setup.metadata(), callContext,
        new ClaimMeters(setup.meterRegistry(), setup.driverName()),
        // Unprepare does not wait for the clear; a failed one goes to the error handler too.
        claimStatus == null ? ref -> {} : ref -> {
          var unused = claimStatus.clear(ref);
        });
    List<ServerServiceDefinition> definitions = new ArrayList<>();
    if (services.nodeV1()) {
      definitions.add(NodeServiceDefinitions.v1(node));
    }
    if (services.nodeV1beta1()) {
      definitions.add(NodeServiceDefinitions.v1beta1(node));
    }
    if (healthBoard != null) {
      HealthStreamService health = new HealthStreamService(healthBoard,
          setup.options().health().refreshInterval(), setup.meterRegistry(), setup.driverName());
      definitions.add(health.definition(ServiceNames.HEALTH_V1));
      definitions.add(health.definition(ServiceNames.HEALTH_V1ALPHA1));
    }
    return definitions;
  }

  /** Waits for the claim cache's first list, once the sockets are up. */
  private void awaitClaimCache() {
    if (claimCache == null) {
      return;
    }
    try {
      claimCache.awaitFirstList(apiServer.timeout());
    } catch (IllegalStateException e) {
      throw new PluginStartException(e.getMessage() + " (API server "
          + setup.kubeClient().masterUrl() + " from " + setup.kubeClient().origin()
          + "; option ApiServerOptions.timeout is "
          + apiServer.timeout() + ")", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PluginStartException("claim cache: interrupted while waiting for the first list"
          + " of ResourceClaims", e);
    }
  }

  private CallSerializer serializer() {
    if (!setup.options().serialization().enabled()) {
      return CallSerializer.none();
    }
    if (setup.lockDirectory() == null) {
      return CallSerializer.inProcess();
    }
    try {
      return new FileLockSerializer(setup.lockDirectory());
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
    return new ServerGuard(server, description, limits, fatal, setup.meterRegistry(),
        setup.driverName());
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

  /**
   * The registration service, also when its server is off.
   *
   * @return the service
   */
  public RegistrationService registration() {
    return registration;
  }

  /**
   * The metrics endpoint's port.
   *
   * @return the port, or empty when the endpoint is off
   */
  public OptionalInt metricsPort() {
    return metrics == null ? OptionalInt.empty() : OptionalInt.of(metrics.port());
  }

  /**
   * The liveness probe's port.
   *
   * @return the port, or empty when the probe is off
   */
  public OptionalInt livenessPort() {
    return liveness == null ? OptionalInt.empty() : OptionalInt.of(liveness.port());
  }

  /**
   * Whether the enabled servers run on their own, intact socket files, and no fatal error (an
   * event loop ended, a JVM error while serving) has broken them.
   *
   * @return true while they do
   */
  public boolean isServing() {
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
