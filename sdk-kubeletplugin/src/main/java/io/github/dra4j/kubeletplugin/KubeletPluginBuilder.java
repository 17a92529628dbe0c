package io.github.dra4j.kubeletplugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.cdi.store.SpecDirectory;
import io.github.dra4j.core.stability.KubernetesAlpha;
import io.github.dra4j.kubeletplugin.internal.env.PluginEnvironment;
import io.github.dra4j.kubeletplugin.internal.setup.Deployment;
import io.github.dra4j.kubeletplugin.internal.setup.Deployment.Setting;
import io.github.dra4j.kubeletplugin.internal.setup.PluginOptions;
import io.github.dra4j.kubeletplugin.internal.setup.PluginSetup;
import io.grpc.ServerInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Configures and starts a {@link KubeletPlugin}. The options are those of the Go helper's {@code
 * kubeletplugin.Start}, with the same defaults, plus a few that only Java needs.
 *
 * <p>The builder's own setters say who and where the plugin is: the driver's name, the API client,
 * the node, the kubelet's directories, the probe and metrics addresses, what {@link
 * #fromEnvironment()} can also supply. Everything else is tuning of one part of the plugin, set
 * through that part's immutable group: {@link #sockets}, {@link #services}, {@link
 * #serialization}, {@link #apiServer}, {@link #observability}, {@link #shutdown}, {@link #slices},
 * {@link #metadata} and {@link #health}, for example {@code .shutdown(s ->
 * s.withCloseOnShutdown(false))}.
 *
 * <p>A later call overwrites an earlier one, except {@link #interceptor}, which accumulates, and
 * the group setters, which change the group as it is. Not thread-safe: configure from one thread,
 * then call {@link #start()}.
 */
public final class KubeletPluginBuilder {

  /** The kubelet's plugin registry directory. */
  public static final Path DEFAULT_REGISTRAR_DIRECTORY = Path
      .of("/var/lib/kubelet/plugins_registry");

  /**
   * The environment variables {@link #fromEnvironment()} reads, in the README's order: {@code
   * NODE_NAME}, {@code POD_UID}, {@code KUBELET_REGISTRAR_DIRECTORY_PATH}, {@code
   * KUBELET_PLUGINS_DIRECTORY_PATH}, {@code CDI_ROOT}, {@code HEALTHCHECK_PORT}, {@code
   * HEALTHCHECK_ADDRESS}, {@code METRICS_PORT}, {@code KUBECONFIG}, {@code KUBE_API_QPS}, {@code
   * KUBE_API_BURST}.
   */
  public static final List<String> ENVIRONMENT_VARIABLES = PluginEnvironment.VARIABLES;

  /** The parent of per-driver plugin data directories. */
  public static final Path DEFAULT_PLUGINS_DIRECTORY = PluginSetup.DEFAULT_PLUGINS_DIRECTORY;

  /** Where Linux publishes the boot ID, a random UUID the kernel picks at every boot. */
  public static final Path DEFAULT_BOOT_ID_SOURCE = Path.of("/proc/sys/kernel/random/boot_id");

  private final DraDriver driver;
  private String driverName = "";
  private KubernetesClient kubeClient;
  private MeterRegistry meterRegistry;
  private final List<ServerInterceptor> interceptors = new ArrayList<>();
  private Deployment deployment = Deployment.defaults(DEFAULT_REGISTRAR_DIRECTORY,
      SpecDirectory.DEFAULT_PATH, DEFAULT_BOOT_ID_SOURCE);
  /** The deployment's values set by a call, which the environment does not override. */
  private final Set<Setting> explicit = EnumSet.noneOf(Setting.class);
  private Map<String, String> environment;
  private SocketOptions sockets = SocketOptions.DEFAULTS;
  private ServiceOptions services = ServiceOptions.DEFAULTS;
  private SerializationOptions serialization = SerializationOptions.DEFAULTS;
  private ApiServerOptions apiServer = ApiServerOptions.DEFAULTS;
  private ObservabilityOptions observability = ObservabilityOptions.DEFAULTS;
  private ShutdownOptions shutdown = ShutdownOptions.DEFAULTS;
  private SliceOptions slices = SliceOptions.DEFAULTS;
  private MetadataOptions metadata = MetadataOptions.DEFAULTS;
  private HealthOptions health = HealthOptions.DEFAULTS;

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
   * KUBECONFIG}, {@code KUBE_API_QPS} and {@code KUBE_API_BURST}. A call of this builder wins
   * over the environment, whatever the order; a missing or empty variable changes nothing.
   * Without {@link #kubeClient}, the plugin makes its API client from {@code KUBECONFIG}
   * (in-cluster when unset), rate-limited by the last two, and closes it. {@link #start()} reads
   * the variables and fails naming every malformed one and its value.
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
   * The API client (mandatory unless {@link #fromEnvironment()} makes one). Needs RBAC to get
   * ResourceClaims, list/watch/create/update/delete ResourceSlices, and get Nodes when no node UID
   * is given. Borrowed: the plugin does not close it.
   *
   * @param client a fabric8 client
   * @return this builder
   */
  public KubeletPluginBuilder kubeClient(KubernetesClient client) {
    this.kubeClient = Objects.requireNonNull(client, "kubeClient");
    return set(Setting.KUBE_CLIENT, deployment);
  }

  /**
   * The node the plugin runs on; needed to publish ResourceSlices ({@link
   * KubeletPlugin#publishResources} fails without it).
   *
   * @param name the Node name (downward API {@code spec.nodeName}), or null or empty for none
   * @return this builder
   */
  public KubeletPluginBuilder nodeName(String name) {
    return set(Setting.NODE_NAME, deployment.withNodeName(name == null ? "" : name));
  }

  /**
   * The UID of the Node object, used as ResourceSlice owner; when unset the Node is read once.
   *
   * @param uid the Node UID, or null or empty to read it from the Node
   * @return this builder
   */
  public KubeletPluginBuilder nodeUid(String uid) {
    deployment = deployment.withNodeUid(uid == null ? "" : uid);
    return this;
  }

  /**
   * Enables seamless upgrades (kubelet 1.33+): two driver pods (old and new) serve side by side,
   * each with its own sockets, and exclude each other through a lock file; the driver must be
   * stateless across calls (see {@link DraDriver}).
   *
   * @param podUid this pod's UID (downward API {@code metadata.uid}), or null or empty to disable
   * @return this builder
   */
  public KubeletPluginBuilder rollingUpdate(String podUid) {
    return set(Setting.ROLLING_UPDATE,
        deployment.withRollingUpdatePodUid(podUid == null ? "" : podUid));
  }

  /**
   * The directory the kubelet watches for registration sockets. Must exist.
   *
   * @param directory default {@link #DEFAULT_REGISTRAR_DIRECTORY}
   * @return this builder
   */
  public KubeletPluginBuilder registrarDirectory(Path directory) {
    return set(Setting.REGISTRAR_DIRECTORY, deployment.withRegistrarDirectory(
        Objects.requireNonNull(directory, "registrarDirectory")));
  }

  /**
   * The directory of the DRA socket and the lock file. Must exist; in rolling-update mode both
   * driver pods must share it.
   *
   * @param directory default {@code /var/lib/kubelet/plugins/<driver>}
   * @return this builder
   */
  public KubeletPluginBuilder pluginDataDirectory(Path directory) {
    return set(Setting.PLUGIN_DATA_DIRECTORY, deployment.withPluginDataDirectory(
        Objects.requireNonNull(directory, "pluginDataDirectory")));
  }

  /**
   * Where the device-metadata CDI specs go ({@link #metadata}); also handed to the driver ({@link
   * PluginContext#cdiDirectory()}).
   *
   * @param directory default {@link SpecDirectory#DEFAULT_PATH} ({@code /var/run/cdi})
   * @return this builder
   */
  public KubeletPluginBuilder cdiDirectory(Path directory) {
    return set(Setting.CDI_DIRECTORY,
        deployment.withCdiDirectory(Objects.requireNonNull(directory, "cdiDirectory")));
  }

  /**
   * Where the node's boot ID is read, handed on to the driver ({@link
   * PluginContext#bootIdSource()}) to tell a node reboot from a restart of the plugin.
   *
   * @param source default {@link #DEFAULT_BOOT_ID_SOURCE}; a simulated node's own file
   * @return this builder
   */
  public KubeletPluginBuilder bootIdSource(Path source) {
    deployment = deployment.withBootIdSource(Objects.requireNonNull(source, "bootIdSource"));
    return this;
  }

  /**
   * Serves the {@code grpc.health.v1} health service (liveness and readiness) on a TCP address
   * for the kubelet's gRPC probes, which connect to the pod's IP address. Default: off.
   *
   * @param address for example {@code new InetSocketAddress(podIp, 51515)}, or without an IP
   *     address for every address; port 0 picks a free port ({@link KubeletPlugin#livenessPort()})
   * @return this builder
   */
  public KubeletPluginBuilder livenessProbe(InetSocketAddress address) {
    return set(Setting.LIVENESS_PROBE,
        deployment.withLivenessAddress(Objects.requireNonNull(address, "livenessProbe")));
  }

  /**
   * Serves the plugin's meters for Prometheus over HTTP at {@code http://<address><path>} ({@link
   * ObservabilityOptions#metricsPath()}), from a Prometheus registry: the {@link #meterRegistry}
   * if it is one, otherwise a new one joined with it. Default: off.
   *
   * @param address for example {@code new InetSocketAddress(8080)}; port 0 picks a free port
   *     ({@link KubeletPlugin#metricsPort()})
   * @return this builder
   */
  public KubeletPluginBuilder metricsEndpoint(InetSocketAddress address) {
    return set(Setting.METRICS_ENDPOINT,
        deployment.withMetricsAddress(Objects.requireNonNull(address, "metricsEndpoint")));
  }

  /**
   * Where the plugin's meters go. Default: a registry owned by the plugin, readable through
   * {@link KubeletPlugin#meterRegistry()}.
   *
   * @param registry a Micrometer registry (for example a Prometheus one)
   * @return this builder
   */
  public KubeletPluginBuilder meterRegistry(MeterRegistry registry) {
    this.meterRegistry = Objects.requireNonNull(registry, "meterRegistry");
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
   * Changes the sockets' names, mode, check interval and limits.
   *
   * @param change from the group as it is to the group wanted
   * @return this builder
   */
  public KubeletPluginBuilder sockets(UnaryOperator<SocketOptions> change) {
    sockets = changed(sockets, change, "sockets");
    return this;
  }

  /**
   * Changes which services are served and how many claims a call may carry.
   *
   * @param change from the group as it is to the group wanted
   * @return this builder
   */
  public KubeletPluginBuilder services(UnaryOperator<ServiceOptions> change) {
    services = changed(services, change, "services");
    return this;
  }

  /**
   * Changes whether calls run one at a time, and where their lock lives.
   *
   * @param change from the group as it is to the group wanted
   * @return this builder
   */
  public KubeletPluginBuilder serialization(UnaryOperator<SerializationOptions> change) {
    serialization = changed(serialization, change, "serialization");
    return this;
  }

  /**
   * Changes the API server timeout, the claim cache and claim device status.
   *
   * @param change from the group as it is to the group wanted
   * @return this builder
   */
  public KubeletPluginBuilder apiServer(UnaryOperator<ApiServerOptions> change) {
    apiServer = changed(apiServer, change, "apiServer");
    return this;
  }

  /**
   * Changes call logging, the JVM's meters, the metrics path, the probe's limits, readiness and
   * Node Events.
   *
   * @param change from the group as it is to the group wanted
   * @return this builder
   */
  public KubeletPluginBuilder observability(UnaryOperator<ObservabilityOptions> change) {
    observability = changed(observability, change, "observability");
    return this;
  }

  /**
   * Changes how the plugin ends: the shutdown hook, its grace period, the fatal error policy.
   *
   * @param change from the group as it is to the group wanted
   * @return this builder
   */
  public KubeletPluginBuilder shutdown(UnaryOperator<ShutdownOptions> change) {
    shutdown = changed(shutdown, change, "shutdown");
    return this;
  }

  /**
   * Changes how ResourceSlices are published.
   *
   * @param change from the group as it is to the group wanted
   * @return this builder
   */
  public KubeletPluginBuilder slices(UnaryOperator<SliceOptions> change) {
    slices = changed(slices, change, "slices");
    return this;
  }

  /**
   * Changes device metadata (alpha).
   *
   * @param change from the group as it is to the group wanted
   * @return this builder
   */
  @KubernetesAlpha(feature = "KEP-5304", since = "1.36")
  public KubeletPluginBuilder metadata(UnaryOperator<MetadataOptions> change) {
    metadata = changed(metadata, change, "metadata");
    return this;
  }

  /**
   * Changes the device health refresh and health taints.
   *
   * @param change from the group as it is to the group wanted
   * @return this builder
   */
  @KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
  public KubeletPluginBuilder health(UnaryOperator<HealthOptions> change) {
    health = changed(health, change, "health");
    return this;
  }

  /**
   * Checks the options, creates the sockets (DRA first, then registration) and starts serving.
   * With the claim cache on ({@link ApiServerOptions#claimCache()}), it then waits up to {@link
   * ApiServerOptions#timeout()} for the cache's first list of ResourceClaims.
   *
   * @return the running plugin
   * @throws PluginStartException naming what is wrong; nothing is left running and no socket is
   *     left behind
   */
  public KubeletPlugin start() {
    if (driverName.isEmpty()) {
      throw new PluginStartException("driver name must be set");
    }
    return PluginSetup.start(new PluginOptions(driver, driverName, deployment, meterRegistry,
        interceptors, sockets, services, serialization, apiServer, observability, shutdown,
        slices, metadata, health), kubeClient, explicit, environment, KubeletPlugin::start);
  }

  private KubeletPluginBuilder set(Setting setting, Deployment changed) {
    explicit.add(setting);
    deployment = changed;
    return this;
  }

  private static <T> T changed(T group, UnaryOperator<T> change, String name) {
    return Objects.requireNonNull(Objects.requireNonNull(change, name).apply(group), name);
  }
}
