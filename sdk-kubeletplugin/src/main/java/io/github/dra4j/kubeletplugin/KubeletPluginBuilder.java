package io.github.dra4j.kubeletplugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.core.option.OptionChecks;
import io.github.dra4j.kubeletplugin.internal.env.DeferredClient;
import io.github.dra4j.kubeletplugin.internal.env.PluginEnvironment;
import io.github.dra4j.kubeletplugin.internal.metadata.MetadataWriter;
import io.github.dra4j.metrics.PrometheusEndpoint;
import io.grpc.ServerInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Configures and starts a {@link KubeletPlugin}. The options are those of the Go helper's {@code
 * kubeletplugin.Start}, with the same defaults, plus a few that only Java needs.
 *
 * <p>A later call of the same option overwrites an earlier one, except {@link #interceptor}, which
 * accumulates. Not thread-safe: configure from one thread, then call {@link #start()}.
 */
public final class KubeletPluginBuilder {

  /** The kubelet's plugin registry directory. */
  public static final Path DEFAULT_REGISTRAR_DIRECTORY = Path.of("/var/lib/kubelet/plugins_registry");

  /**
   * The environment variables {@link #fromEnvironment()} reads, in the README's order: {@code
   * NODE_NAME}, {@code POD_UID}, {@code KUBELET_REGISTRAR_DIRECTORY_PATH}, {@code
   * KUBELET_PLUGINS_DIRECTORY_PATH}, {@code CDI_ROOT}, {@code HEALTHCHECK_PORT}, {@code
   * HEALTHCHECK_ADDRESS}, {@code METRICS_PORT}, {@code KUBECONFIG}, {@code KUBE_API_QPS}, {@code
   * KUBE_API_BURST}.
   */
  public static final List<String> ENVIRONMENT_VARIABLES = PluginEnvironment.VARIABLES;

  /** The parent of per-driver plugin data directories. */
  public static final Path DEFAULT_PLUGINS_DIRECTORY = Path.of("/var/lib/kubelet/plugins");

  /** Where Linux publishes the boot ID, a random UUID the kernel picks at every boot. */
  public static final Path DEFAULT_BOOT_ID_SOURCE = Path.of("/proc/sys/kernel/random/boot_id");

  final DraDriver driver;
  String driverName = "";
  KubernetesClient kubeClient;
  String nodeName = "";
  String nodeUid = "";
  Path registrarDirectory = DEFAULT_REGISTRAR_DIRECTORY;
  String registrarSocketFilename = "";
  Path pluginDataDirectory;
  String pluginSocket = "";
  String rollingUpdatePodUid = "";
  boolean serialize = true;
  Path flockDirectory;
  boolean nodeV1 = true;
  boolean nodeV1beta1 = true;
  boolean registrationService = true;
  boolean draService = true;
  final List<ServerInterceptor> interceptors = new ArrayList<>();
  MeterRegistry meterRegistry;
  boolean logCalls = true;
  InetSocketAddress livenessAddress;
  InetSocketAddress metricsAddress;
  String metricsPath = PrometheusEndpoint.DEFAULT_PATH;
  boolean jvmMetrics;
  boolean claimStatus;
  Set<PosixFilePermission> socketPermissions = PosixFilePermissions.fromString("rw-------");
  int maxClaimsPerCall = 1024;
  boolean claimCache;
  boolean closeOnShutdown = true;
  Duration healthRefreshInterval = Duration.ofSeconds(10);
  Duration socketCheckInterval = Duration.ofSeconds(5);
  String reconcilePoolWithName = "";
  boolean readinessAwaitsSlices = true;
  boolean nodeEvents = true;
  Duration sliceSyncDelay;
  HealthTaints healthTaints;
  Duration healthTaintDelay = Duration.ofSeconds(1);
  FatalErrorPolicy fatalErrorPolicy = FatalErrorPolicy.CLOSE;
  Duration apiServerTimeout = Duration.ofSeconds(60);
  Duration shutdownGracePeriod = Duration.ofSeconds(10);
  boolean deviceMetadata;
  List<String> metadataVersions = List.of(MetadataWriter.V1ALPHA1);
  Path cdiDirectory = SpecDirectory.DEFAULT_PATH;
  Path bootIdSource = DEFAULT_BOOT_ID_SOURCE;
  ServerLimits draSocketLimits = ServerLimits.DRA_SOCKET;
  ServerLimits registrationSocketLimits = ServerLimits.REGISTRATION_SOCKET;
  ServerLimits livenessProbeLimits = ServerLimits.LIVENESS_PROBE;
  Map<String, String> environment;
  /** The options set by a call, which the environment does not override. */
  final Set<Explicit> explicit = EnumSet.noneOf(Explicit.class);

  /** The options {@link #fromEnvironment()} can set, so a call of their setter can be noted. */
  enum Explicit {
    KUBE_CLIENT, NODE_NAME, ROLLING_UPDATE, REGISTRAR_DIRECTORY, PLUGIN_DATA_DIRECTORY,
    CDI_DIRECTORY, LIVENESS_PROBE, METRICS_ENDPOINT
  }

  KubeletPluginBuilder(DraDriver driver) {
    this.driver = Objects.requireNonNull(driver, "driver");
  }

  /**
   * Takes the settings a driver's DaemonSet passes as environment variables, with the names the
   * reference drivers use: {@code NODE_NAME}, {@code POD_UID} (rolling updates), {@code
   * KUBELET_REGISTRAR_DIRECTORY_PATH}, {@code KUBELET_PLUGINS_DIRECTORY_PATH} (the plugin data
   * directory is this plus the driver name), {@code CDI_ROOT}, {@code HEALTHCHECK_PORT} and
   * {@code METRICS_PORT} (-1 off, 0 a random port), {@code HEALTHCHECK_ADDRESS} (the IP address
   * the liveness port is bound to, such as the pod's own; every address when unset), {@code
   * KUBECONFIG}, {@code KUBE_API_QPS} and {@code KUBE_API_BURST}. Options set by a call of this
   * builder win over the environment, whatever the order of the calls. Without {@link
   * #kubeClient}, the plugin creates its API client from {@code KUBECONFIG} (in-cluster when
   * unset), rate-limited by the last two, and closes it when it closes. A missing or empty variable leaves its option alone.
   *
   * <p>The variables are read by {@link #start()}, which fails with a {@link
   * PluginStartException} naming every malformed variable and its value.
   *
   * @return this builder
   */
  public KubeletPluginBuilder fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * Like {@link #fromEnvironment()}, from a given map instead of the process environment: for
   * tests, and for drivers that gather their settings elsewhere.
   *
   * @param environment variable names to values
   * @return this builder
   */
  public KubeletPluginBuilder fromEnvironment(Map<String, String> environment) {
    this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    return this;
  }

  /**
   * The DRA driver name (mandatory): sent to the kubelet, used in socket names and ResourceSlices.
   *
   * @param name for example {@code gpu.example.com}
   * @return this builder
   */
  public KubeletPluginBuilder driverName(String name) {
    this.driverName = Objects.requireNonNull(name, "driverName");
    return this;
  }

  /**
   * The API client (mandatory). Needs RBAC to get ResourceClaims, list/watch/create/update/delete
   * ResourceSlices, and get Nodes when no node UID is given. Borrowed: the plugin does not close it.
   *
   * @param client a fabric8 client
   * @return this builder
   */
  public KubeletPluginBuilder kubeClient(KubernetesClient client) {
    this.kubeClient = Objects.requireNonNull(client, "kubeClient");
    explicit.add(Explicit.KUBE_CLIENT);
    return this;
  }

  /**
   * The node the plugin runs on; needed to publish ResourceSlices. Typically {@code
   * System.getenv("NODE_NAME")}, set from the downward API; null or empty leaves it unset, as when
   * the variable is missing, and then {@link KubeletPlugin#publishResources} fails.
   *
   * @param name the Node name (downward API {@code spec.nodeName}), or null or empty for none
   * @return this builder
   */
  public KubeletPluginBuilder nodeName(String name) {
    this.nodeName = name == null ? "" : name;
    explicit.add(Explicit.NODE_NAME);
    return this;
  }

  /**
   * The UID of the Node object, used as ResourceSlice owner; when unset the Node is read once.
   *
   * @param uid the Node UID, or null or empty to read it from the Node
   * @return this builder
   */
  public KubeletPluginBuilder nodeUid(String uid) {
    this.nodeUid = uid == null ? "" : uid;
    return this;
  }

  /**
   * The directory the kubelet watches for registration sockets. Must exist.
   *
   * @param directory default {@code /var/lib/kubelet/plugins_registry}
   * @return this builder
   */
  public KubeletPluginBuilder registrarDirectory(Path directory) {
    this.registrarDirectory = Objects.requireNonNull(directory, "registrarDirectory");
    explicit.add(Explicit.REGISTRAR_DIRECTORY);
    return this;
  }

  /**
   * The registration socket file name; not allowed together with {@link #rollingUpdate}.
   *
   * @param name default {@code <driver>-reg.sock}
   * @return this builder
   */
  public KubeletPluginBuilder registrarSocketFilename(String name) {
    this.registrarSocketFilename = Objects.requireNonNull(name, "registrarSocketFilename");
    return this;
  }

  /**
   * The directory of the DRA socket and the lock file. Must exist; in rolling-update mode both
   * driver pods must share it.
   *
   * @param directory default {@code /var/lib/kubelet/plugins/<driver>}
   * @return this builder
   */
  public KubeletPluginBuilder pluginDataDirectory(Path directory) {
    this.pluginDataDirectory = Objects.requireNonNull(directory, "pluginDataDirectory");
    explicit.add(Explicit.PLUGIN_DATA_DIRECTORY);
    return this;
  }

  /**
   * The DRA socket file name.
   *
   * @param name default {@code dra.sock}, or {@code dra-<podUID>.sock} in rolling-update mode
   * @return this builder
   */
  public KubeletPluginBuilder pluginSocket(String name) {
    this.pluginSocket = Objects.requireNonNull(name, "pluginSocket");
    return this;
  }

  /**
   * Enables seamless upgrades: two driver pods (old and new) serve side by side, each with its own
   * sockets, and exclude each other through a lock file. Needs kubelet 1.33 or later. The driver
   * must be stateless across calls (see {@link DraDriver}).
   *
   * <p>Typically {@code System.getenv("POD_UID")}, set from the downward API; null or empty
   * disables rolling updates, as when the variable is missing.
   *
   * @param podUid this pod's UID (downward API {@code metadata.uid}), or null or empty to disable
   * @return this builder
   */
  public KubeletPluginBuilder rollingUpdate(String podUid) {
    this.rollingUpdatePodUid = podUid == null ? "" : podUid;
    explicit.add(Explicit.ROLLING_UPDATE);
    return this;
  }

  /**
   * Whether prepare and unprepare calls run one at a time (default true). Off, the driver must
   * handle concurrent calls itself.
   *
   * @param on true to serialize
   * @return this builder
   */
  public KubeletPluginBuilder serialize(boolean on) {
    this.serialize = on;
    return this;
  }

  /**
   * Where {@code serialize.lock} lives in rolling-update mode.
   *
   * @param directory default: the plugin data directory
   * @return this builder
   */
  public KubeletPluginBuilder flockDirectory(Path directory) {
    this.flockDirectory = Objects.requireNonNull(directory, "flockDirectory");
    return this;
  }

  /**
   * Whether to serve and advertise DRA v1 (kubelet 1.34+). Default true.
   *
   * @param on true to serve
   * @return this builder
   */
  public KubeletPluginBuilder nodeV1(boolean on) {
    this.nodeV1 = on;
    return this;
  }

  /**
   * Whether to serve and advertise DRA v1beta1 (kubelet 1.32+). Default true.
   *
   * @param on true to serve
   * @return this builder
   */
  public KubeletPluginBuilder nodeV1beta1(boolean on) {
    this.nodeV1beta1 = on;
    return this;
  }

  /**
   * Whether to start the registration server. Default true; off for tests.
   *
   * @param on true to start it
   * @return this builder
   */
  public KubeletPluginBuilder registrationService(boolean on) {
    this.registrationService = on;
    return this;
  }

  /**
   * Whether to start the DRA server. Default true; off for a plugin that only publishes slices.
   *
   * @param on true to start it
   * @return this builder
   */
  public KubeletPluginBuilder draService(boolean on) {
    this.draService = on;
    return this;
  }

  /**
   * Adds a gRPC interceptor to both servers; interceptors run after the SDK's own, in the order
   * added.
   *
   * @param interceptor an interceptor
   * @return this builder
   */
  public KubeletPluginBuilder interceptor(ServerInterceptor interceptor) {
    interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
    return this;
  }

  /**
   * Where call timers go. Default: a registry owned by the plugin, readable through {@link
   * KubeletPlugin#meterRegistry()}.
   *
   * @param registry a Micrometer registry (for example a Prometheus one)
   * @return this builder
   */
  public KubeletPluginBuilder meterRegistry(MeterRegistry registry) {
    this.meterRegistry = Objects.requireNonNull(registry, "meterRegistry");
    return this;
  }

  /**
   * Whether requests and responses are logged at DEBUG (default true). Failures are always logged.
   *
   * @param on true to log calls
   * @return this builder
   */
  public KubeletPluginBuilder logCalls(boolean on) {
    this.logCalls = on;
    return this;
  }

  /**
   * Serves the {@code grpc.health.v1} health service on a TCP address for a liveness probe.
   * Default: off. The kubelet's gRPC probe connects to the pod's IP address, so binding to that
   * address alone (the downward API's {@code status.podIP}) is enough for it; its connections and
   * what they may hold are limited by {@link #livenessProbeLimits}.
   *
   * @param address where to listen, for example {@code new InetSocketAddress(podIp, 51515)} or
   *     {@code new InetSocketAddress(51515)} for every address; port 0 picks a free port (see
   *     {@link KubeletPlugin#livenessPort()})
   * @return this builder
   */
  public KubeletPluginBuilder livenessProbe(InetSocketAddress address) {
    this.livenessAddress = Objects.requireNonNull(address, "livenessProbe");
    explicit.add(Explicit.LIVENESS_PROBE);
    return this;
  }

  /**
   * Serves the plugin's meters for Prometheus over HTTP at {@code http://<address><path>}
   * (default path {@value PrometheusEndpoint#DEFAULT_PATH}), in the Prometheus text format or
   * OpenMetrics as the scraper asks, from start until close. The meters go to a Micrometer
   * Prometheus registry: the one given to {@link #meterRegistry} if it is one, otherwise a new
   * one, joined with a given registry of another kind so both see every meter. Default: off.
   *
   * @param address where to listen, for example {@code new InetSocketAddress(8080)}; port 0
   *     picks a free port (see {@link KubeletPlugin#metricsPort()})
   * @return this builder
   */
  public KubeletPluginBuilder metricsEndpoint(InetSocketAddress address) {
    this.metricsAddress = Objects.requireNonNull(address, "metricsEndpoint");
    explicit.add(Explicit.METRICS_ENDPOINT);
    return this;
  }

  /**
   * The path of {@link #metricsEndpoint}; default {@value PrometheusEndpoint#DEFAULT_PATH}.
   *
   * @param path an absolute path other than {@code /}
   * @return this builder
   */
  public KubeletPluginBuilder metricsPath(String path) {
    this.metricsPath = PrometheusEndpoint.checkPath(path);
    return this;
  }

  /**
   * Turns on the claim device status reporter ({@link KubeletPlugin#claimStatus()}): the driver
   * reports per-device data in {@code status.devices[]} of its claims, and the plugin removes
   * this driver's entries after each successful unprepare (one GET per unprepared claim, and a
   * write where there were entries). Needs RBAC to update {@code resourceclaims/status} (see the
   * README). Default: off.
   *
   * @param on whether to report claim device status
   * @return this builder
   */
  public KubeletPluginBuilder claimStatus(boolean on) {
    this.claimStatus = on;
    return this;
  }

  /**
   * Adds the JVM's own meters (memory, garbage collection, threads, class loading, CPU, uptime)
   * to the plugin's registry. Default: off, so a scrape shows only what the driver does.
   *
   * @param on whether to register them
   * @return this builder
   */
  public KubeletPluginBuilder jvmMetrics(boolean on) {
    this.jvmMetrics = on;
    return this;
  }

  /**
   * File mode of both sockets. Default {@code rw-------}: only the owner (root, like the kubelet)
   * may connect.
   *
   * @param permissions the mode
   * @return this builder
   */
  public KubeletPluginBuilder socketPermissions(Set<PosixFilePermission> permissions) {
    this.socketPermissions =
        Set.copyOf(Objects.requireNonNull(permissions, "socketPermissions"));
    return this;
  }

  /**
   * The largest number of claims accepted in one call (default 1024); larger requests fail with
   * INVALID_ARGUMENT before any claim is read.
   *
   * @param max at least 1
   * @return this builder
   */
  public KubeletPluginBuilder maxClaimsPerCall(int max) {
    this.maxClaimsPerCall = OptionChecks.atLeast(max, 1, "maxClaimsPerCall");
    return this;
  }

  /**
   * Serves claims from an informer cache instead of one GET per claim, falling back to a GET when
   * the cached claim is missing, unallocated or has another UID. Default off: the informer watches
   * all claims in the cluster (RBAC list/watch, memory).
   *
   * @param on true to cache
   * @return this builder
   */
  public KubeletPluginBuilder claimCache(boolean on) {
    this.claimCache = on;
    return this;
  }

  /**
   * Whether a JVM shutdown hook closes the plugin on SIGTERM or SIGINT, removing its sockets so
   * the kubelet deregisters it at once. Default true.
   *
   * @param on true to install the hook
   * @return this builder
   */
  public KubeletPluginBuilder closeOnShutdown(boolean on) {
    this.closeOnShutdown = on;
    return this;
  }

  /**
   * How often device health is re-sent to the kubelet when nothing changed, so that devices do
   * not time out to "unknown" (the kubelet's default timeout is 30 s). Default 10 s.
   *
   * @param interval a positive duration
   * @return this builder
   */
  public KubeletPluginBuilder healthRefreshInterval(Duration interval) {
    this.healthRefreshInterval = OptionChecks.positive(interval, "healthRefreshInterval");
    return this;
  }

  /**
   * How often the plugin checks that its socket files are still there; a removed or replaced
   * socket is reported to {@link DraDriver#handleError} as fatal. Default 5 s.
   *
   * @param interval a positive duration
   * @return this builder
   */
  public KubeletPluginBuilder socketCheckInterval(Duration interval) {
    this.socketCheckInterval = OptionChecks.positive(interval, "socketCheckInterval");
    return this;
  }

  /**
   * Publishes exactly one pool, with this name, whose slices are not tied to this node (for
   * network-attached devices): the slices carry no node name, so the pool must set a node
   * selector, all-nodes, or per-device node selection. Default empty (node-local slices).
   *
   * @param poolName the pool name
   * @return this builder
   */
  public KubeletPluginBuilder reconcilePoolWithName(String poolName) {
    this.reconcilePoolWithName = Objects.requireNonNull(poolName, "reconcilePoolWithName");
    return this;
  }

  /**
   * Whether the readiness service of the {@link #livenessProbe health port} ({@value
   * KubeletPlugin#READINESS_SERVICE}) waits for the driver's devices to be published: NOT_SERVING
   * until every pool of the driver's first {@link KubeletPlugin#publishResources} has synced, and
   * while any pool's syncs fail. Off, readiness is liveness, for a driver whose slices another
   * component publishes. Default: on.
   *
   * @param on whether readiness waits for published slices
   * @return this builder
   */
  public KubeletPluginBuilder readinessAwaitsSlices(boolean on) {
    this.readinessAwaitsSlices = on;
    return this;
  }

  /**
   * Whether a change of publishing state is posted as an Event about this plugin's Node ({@code
   * kubectl describe node}): {@code Warning ResourceSlicePublishFailed} naming the pool and the
   * reason when a pool starts failing, {@code Normal ResourceSlicePublished} when it is published
   * again; at most one Event per 10 s. Needs RBAC to create {@code events} in namespace {@code
   * default} (see the README); without it each Event is logged as refused. Default: on.
   *
   * @param on whether to post Events
   * @return this builder
   */
  public KubeletPluginBuilder nodeEvents(boolean on) {
    this.nodeEvents = on;
    return this;
  }

  /**
   * How long the ResourceSlice controller waits after a slice event before syncing the pool
   * (default 30 s, as in Go). Shorter values make tests and demos converge faster.
   *
   * @param delay a positive duration
   * @return this builder
   */
  public KubeletPluginBuilder sliceSyncDelay(Duration delay) {
    this.sliceSyncDelay = OptionChecks.positive(delay, "sliceSyncDelay");
    return this;
  }

  /**
   * Makes a device's reported health taint it in the published ResourceSlices: an unhealthy
   * device gets the taints of the policy, for example {@code
   * healthTaints(HealthTaints.whenUnhealthy(TaintEffect.NO_SCHEDULE))} for the taint {@code
   * <driver name>/unhealthy=Unhealthy:NoSchedule}, and loses them when it is healthy again. The
   * plugin keeps the driver's last {@link KubeletPlugin#publishResources} and publishes it again
   * with the taints whenever health changes (changes within {@link #healthTaintDelay} go out as
   * one publish); taints the driver set on its devices itself stay. Needs a driver that reports
   * device health ({@link DraDriver#reportsDeviceHealth()}). A pool whose slices may get taints is
   * best built with {@code Pool.Builder.devicesMayBeTainted(true)}, so that tainting a device
   * rewrites one slice. Default: the driver's own {@link DraDriver#healthTaints()} (none unless
   * it says so).
   *
   * @param taints the policy; null for the driver's own
   * @return this builder
   */
  public KubeletPluginBuilder healthTaints(HealthTaints taints) {
    this.healthTaints = taints;
    return this;
  }

  /**
   * How long health taints wait after a change of health before the devices are published
   * again, so that a burst of changes is one publish (default 1 s). The kubelet's health stream
   * does not wait.
   *
   * @param delay zero or positive
   * @return this builder
   */
  public KubeletPluginBuilder healthTaintDelay(Duration delay) {
    this.healthTaintDelay = OptionChecks.nonNegative(delay, "healthTaintDelay");
    return this;
  }

  /**
   * Enables device metadata (KEP-5304, Kubernetes 1.36+, alpha): for every prepared request the
   * plugin writes a {@code metadata.json} with the devices' attributes (from {@link
   * PreparedDevice#metadata()}) and a CDI spec that mounts it read-only into the container, adds
   * that CDI ID to the claim's devices, and removes both on unprepare. Default off.
   *
   * @param on true to enable
   * @return this builder
   */
  public KubeletPluginBuilder deviceMetadata(boolean on) {
    this.deviceMetadata = on;
    return this;
  }

  /**
   * Metadata API versions to write, newest first; unknown ones are skipped. Default {@code
   * metadata.resource.k8s.io/v1alpha1} (the Go helper defaults to none, which makes enabling the
   * feature fail; dra4j uses the version its documentation promises).
   *
   * @param versions group/version strings
   * @return this builder
   */
  public KubeletPluginBuilder metadataVersions(String... versions) {
    Objects.requireNonNull(versions, "metadataVersions");
    for (String version : versions) {
      Objects.requireNonNull(version, "metadataVersions element");
    }
    this.metadataVersions = List.of(versions);
    return this;
  }

  /**
   * Where the device-metadata CDI specs go.
   *
   * @param directory default {@link SpecDirectory#DEFAULT_PATH} ({@code /var/run/cdi})
   * @return this builder
   */
  public KubeletPluginBuilder cdiDirectory(Path directory) {
    this.cdiDirectory = Objects.requireNonNull(directory, "cdiDirectory");
    explicit.add(Explicit.CDI_DIRECTORY);
    return this;
  }

  /**
   * Where the node's boot ID is read. A driver that keeps state across restarts (the claim
   * lifecycle's checkpoint does) compares it with the one it stored to tell a node reboot from a
   * restart of the plugin or the kubelet; the plugin only hands it on ({@link
   * PluginContext#bootIdSource()}).
   *
   * @param source default {@link #DEFAULT_BOOT_ID_SOURCE}; a simulated node points it at a file
   *     of its own that it rewrites when it simulates a reboot
   * @return this builder
   */
  public KubeletPluginBuilder bootIdSource(Path source) {
    this.bootIdSource = Objects.requireNonNull(source, "bootIdSource");
    return this;
  }

  /**
   * What the DRA socket's server lets its clients hold: connections, calls on each, request and
   * metadata size, flow-control window, requests still arriving, handshake, idle and age limits.
   * Default {@link ServerLimits#DRA_SOCKET}.
   *
   * @param limits the limits
   * @return this builder
   */
  public KubeletPluginBuilder draSocketLimits(ServerLimits limits) {
    this.draSocketLimits = Objects.requireNonNull(limits, "draSocketLimits");
    return this;
  }

  /**
   * What the registration socket's server lets its clients hold. Default {@link
   * ServerLimits#REGISTRATION_SOCKET}.
   *
   * @param limits the limits
   * @return this builder
   */
  public KubeletPluginBuilder registrationSocketLimits(ServerLimits limits) {
    this.registrationSocketLimits = Objects.requireNonNull(limits, "registrationSocketLimits");
    return this;
  }

  /**
   * What the liveness probe's server ({@link #livenessProbe}) lets its clients hold. Default
   * {@link ServerLimits#LIVENESS_PROBE}.
   *
   * @param limits the limits
   * @return this builder
   */
  public KubeletPluginBuilder livenessProbeLimits(ServerLimits limits) {
    this.livenessProbeLimits = Objects.requireNonNull(limits, "livenessProbeLimits");
    return this;
  }

  /**
   * What the plugin does after a fatal background error (a socket deleted or replaced, an event
   * loop thread that ended, a JVM error such as {@link OutOfMemoryError} while serving) was
   * reported to {@link DraDriver#handleError}. Default {@link FatalErrorPolicy#CLOSE}.
   *
   * @param policy report only, close the plugin, or close it and exit the JVM with status 1
   * @return this builder
   */
  public KubeletPluginBuilder fatalErrorPolicy(FatalErrorPolicy policy) {
    this.fatalErrorPolicy = Objects.requireNonNull(policy, "fatalErrorPolicy");
    return this;
  }

  /**
   * How long the plugin waits for the API server outside a kubelet call: {@link #start()} for the
   * claim cache's first list of ResourceClaims (with {@link #claimCache(boolean)} on), the first
   * {@link KubeletPlugin#publishResources} for the ResourceSlice informer's first list (both only
   * after the sockets are up), and a claim status report from when it is made until it is
   * written, queueing behind earlier reports included ({@link #claimStatus(boolean)}). A single
   * request is bounded by the Kubernetes client's request timeout. What a kubelet call waits for
   * ends with the call's own deadline instead. Default 60 s.
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public KubeletPluginBuilder apiServerTimeout(Duration timeout) {
    this.apiServerTimeout = OptionChecks.positive(timeout, "apiServerTimeout");
    return this;
  }

  /**
   * How long the shutdown hook ({@link #closeOnShutdown(boolean)}) waits, after closing the
   * plugin on SIGTERM or SIGINT, for the threads that were blocked in {@link
   * KubeletPlugin#awaitTermination()} to finish what follows it, before the JVM exits. Keep it
   * below the pod's termination grace period (Kubernetes' default: 30 s). Default 10 s.
   *
   * @param period a positive duration
   * @return this builder
   */
  public KubeletPluginBuilder shutdownGracePeriod(Duration period) {
    this.shutdownGracePeriod = OptionChecks.positive(period, "shutdownGracePeriod");
    return this;
  }

  /**
   * Checks the options, creates the sockets (DRA first, then registration) and starts serving.
   * With {@link #claimCache(boolean)} on, it then waits up to {@link #apiServerTimeout} for the
   * cache's first list of ResourceClaims.
   *
   * @return the running plugin
   * @throws PluginStartException naming what is wrong; nothing is left running and no socket is
   *     left behind
   */
  public KubeletPlugin start() {
    if (driverName.isEmpty()) {
      throw new PluginStartException("driver name must be set");
    }
    DeferredClient ownedClient = environment == null ? null
        : EnvironmentOptions.apply(this, environment);
    if (kubeClient == null && ownedClient == null) {
      throw new PluginStartException("Kubernetes client must be set");
    }
    try {
      return start(ownedClient != null ? ownedClient : DeferredClient.of(kubeClient),
          ownedClient != null);
    } catch (RuntimeException | Error e) {
      if (ownedClient != null) {
        ownedClient.close();
      }
      throw e;
    }
  }

  private KubeletPlugin start(DeferredClient client, boolean ownsClient) {
    if (!rollingUpdatePodUid.isEmpty() && !registrarSocketFilename.isEmpty()) {
      throw new PluginStartException(
          "rolling updates and explicit registration socket filename are mutually exclusive");
    }
    return KubeletPlugin.start(PluginSettings.resolve(this, client, ownsClient));
  }

}
