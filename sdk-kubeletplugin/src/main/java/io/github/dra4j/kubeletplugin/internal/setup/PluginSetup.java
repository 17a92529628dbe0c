package io.github.dra4j.kubeletplugin.internal.setup;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubeletplugin.HealthTaints;
import io.github.dra4j.kubeletplugin.PluginStartException;
import io.github.dra4j.kubeletplugin.internal.env.DeferredClient;
import io.github.dra4j.kubeletplugin.internal.env.EnvironmentOptions;
import io.github.dra4j.kubeletplugin.internal.env.PluginEnvironment;
import io.github.dra4j.kubeletplugin.internal.setup.Deployment.Setting;
import io.github.dra4j.kubeletplugin.internal.metadata.MetadataWriter;
import io.github.dra4j.kubeletplugin.internal.socket.SocketNames;
import io.github.dra4j.kubeletplugin.spi.DirectoryChecks;
import io.github.dra4j.metrics.PrometheusRegistries;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A plugin's options with what follows from them filled in, as the Go helper derives them: the
 * registration socket (per pod in rolling-update mode), the plugin data directory ({@code
 * <plugins directory>/<driver>}), the DRA socket and the lock directory (only for serialized calls
 * in rolling-update mode), the advertised services, the meter registries, the metadata writer and
 * the health taint policy. Immutable.
 *
 * @param options the options as given
 * @param kubeClient the API client, made later when it comes from the environment
 * @param ownsKubeClient whether the plugin made the client and closes it
 * @param registrationSocket the registration socket's path
 * @param draSocket the DRA socket's path
 * @param pluginDataDirectory the plugin data directory
 * @param cdiDirectory the CDI spec directory
 * @param lockDirectory the directory of the lock that serializes calls across pods; null when
 *     calls are not serialized across pods
 * @param supportedServices the gRPC services advertised to the kubelet, in order
 * @param health whether the driver reports device health
 * @param meterRegistry where every meter goes
 * @param prometheusRegistry the Prometheus registry among them when metrics are served; else null
 * @param metadata the device metadata writer; null when off
 * @param healthTaints the health taint policy; null for none
 */
public record PluginSetup(
    PluginOptions options,
    DeferredClient kubeClient,
    boolean ownsKubeClient,
    Path registrationSocket,
    Path draSocket,
    Path pluginDataDirectory,
    Path cdiDirectory,
    Path lockDirectory,
    List<String> supportedServices,
    boolean health,
    MeterRegistry meterRegistry,
    PrometheusMeterRegistry prometheusRegistry,
    MetadataWriter metadata,
    HealthTaints healthTaints) {

  /** The parent of per-driver plugin data directories. */
  public static final Path DEFAULT_PLUGINS_DIRECTORY = Path.of("/var/lib/kubelet/plugins");

  /**
   * The driver's name.
   *
   * @return the name
   */
  public String driverName() {
    return options.driverName();
  }

  /**
   * The node's name.
   *
   * @return the name, empty when unset
   */
  public String nodeName() {
    return options.deployment().nodeName();
  }

  /**
   * Applies the environment, if given, then checks the options and derives the rest.
   *
   * @param options the options as the builder's calls left them
   * @param kubeClient the driver's API client; null when the environment gives one
   * @param explicit the deployment's values a builder call set, which the environment does not
   *     override
   * @param environment variable names to values; null to read none
   * @param start starts the plugin with the setup
   * @param <T> the plugin
   * @return the plugin; when the plugin made its own API client, a failure closes it
   * @throws PluginStartException naming what is wrong
   */
  public static <T> T start(PluginOptions options, KubernetesClient kubeClient,
      Set<Setting> explicit, Map<String, String> environment, Function<PluginSetup, T> start) {
    PluginOptions applied = options;
    DeferredClient ownedClient = null;
    if (environment != null) {
      EnvironmentOptions.Applied env = EnvironmentOptions.apply(options.deployment(), explicit,
          options.driverName(), environment);
      applied = options.withDeployment(env.deployment());
      ownedClient = env.ownedClient();
    }
    if (kubeClient == null && ownedClient == null) {
      throw new PluginStartException("Kubernetes client must be set");
    }
    try {
      return start.apply(resolve(applied,
          ownedClient != null ? ownedClient : DeferredClient.of(kubeClient), ownedClient != null));
    } catch (RuntimeException | Error e) {
      if (ownedClient != null) {
        ownedClient.close();
      }
      throw e;
    }
  }

  /**
   * Checks the options and derives the rest.
   *
   * @param o the options, the environment applied
   * @param client the API client
   * @param ownsKubeClient whether the plugin made the client
   * @return the setup
   * @throws PluginStartException naming what is wrong
   */
  public static PluginSetup resolve(PluginOptions o, DeferredClient client,
      boolean ownsKubeClient) {
    String driverName = o.driverName();
    Deployment d = o.deployment();
    boolean rolling = !d.rollingUpdatePodUid().isEmpty();
    if (rolling && !o.sockets().registrarSocketFilename().isEmpty()) {
      throw new PluginStartException(
          "rolling updates and explicit registration socket filename are mutually exclusive");
    }
    // The API server's rule for driver names (ResourceSlices, claims).
    NameRules.driverName(driverName).ifPresent(problem -> {
      throw new PluginStartException("driver name \"" + driverName + "\" is invalid: " + problem);
    });
    requireLowerCaseDriverName(driverName);
    Path registrarDirectory = d.registrarDirectory().normalize();
    String registrarName = !o.sockets().registrarSocketFilename().isEmpty()
        ? o.sockets().registrarSocketFilename()
        : rolling
            ? SocketNames.rollingUpdateRegistrationSocket(
                registrarDirectory, driverName, d.rollingUpdatePodUid())
        : SocketNames.registrationSocket(driverName);
    Path dataDirectory = (d.pluginDataDirectory() != null
        ? d.pluginDataDirectory()
        : DEFAULT_PLUGINS_DIRECTORY.resolve(driverName)).normalize();
    String pluginSocket = !o.sockets().pluginSocket().isEmpty()
        ? o.sockets().pluginSocket()
        : rolling
            ? SocketNames.rollingUpdatePluginSocket(dataDirectory, d.rollingUpdatePodUid())
        : SocketNames.DEFAULT_PLUGIN_SOCKET;
    Path given = o.serialization().lockDirectory();
    Path lockDirectory = rolling && o.serialization().enabled()
        ? (given != null ? given : dataDirectory).normalize()
        : null;
    boolean health = o.driver().reportsDeviceHealth();
    HealthTaints healthTaints = o.health().taints() != null
        ? o.health().taints() : o.driver().healthTaints();
    if (healthTaints != null && !health) {
      throw new PluginStartException("health taints need a driver that reports device health:"
          + " return true from DraDriver.reportsDeviceHealth() (ClaimDriver.reportsDeviceHealth()"
          + " with ClaimLifecycle), or set no health taints (KubeletPluginBuilder.health)");
    }
    Registries registries = Registries.of(o.meterRegistry(), d.metricsAddress() != null);
    Path cdiDirectory = d.cdiDirectory().normalize();
    return new PluginSetup(o, client, ownsKubeClient, registrarDirectory.resolve(registrarName),
        dataDirectory.resolve(pluginSocket), dataDirectory, cdiDirectory, lockDirectory,
        services(o, health), health, registries.all(), registries.prometheus(),
        metadataWriter(o, client, dataDirectory, cdiDirectory), healthTaints);
  }

  private static List<String> services(PluginOptions o, boolean health) {
    List<String> services = new ArrayList<>();
    if (o.services().nodeV1()) {
      services.add(ServiceNames.DRA_V1);
    }
    if (o.services().nodeV1beta1()) {
      services.add(ServiceNames.DRA_V1BETA1);
    }
    if (health) {
      services.add(ServiceNames.HEALTH_V1);
      services.add(ServiceNames.HEALTH_V1ALPHA1);
    }
    if (services.isEmpty()) {
      throw new PluginStartException("no supported DRA gRPC API is implemented and enabled");
    }
    return List.copyOf(services);
  }

  private static MetadataWriter metadataWriter(PluginOptions o, DeferredClient client,
      Path dataDirectory, Path cdiDirectory) {
    if (!o.metadata().enabled()) {
      return null;
    }
    try {
      return new MetadataWriter(o.driverName(), dataDirectory, cdiDirectory,
          o.metadata().versions(), () -> client.get().getKubernetesSerialization());
    } catch (IllegalArgumentException e) {
      throw new PluginStartException("initialize device metadata: " + e.getMessage(), e);
    }
  }

  /**
   * The plugin's own rule on top of the server's, which accepts upper-case driver names (with a
   * warning): the plugin makes the driver name the vendor of the CDI kinds it writes ({@code
   * k8s.<driver>/claim}, {@code <driver>/metadata}), which the CDI specification wants to be a
   * lower-case DNS subdomain, and part of its socket and CDI spec file names.
   */
  private static void requireLowerCaseDriverName(String driverName) {
    if (!NameRules.isDnsSubdomain(driverName, NameRules.DRIVER_NAME_MAX)) {
      throw new PluginStartException("driver name \"" + driverName + "\" is not usable for a"
          + " kubelet plugin: it must be lower case, as it becomes the vendor of the plugin's CDI"
          + " kinds (a lower-case DNS subdomain) and part of its socket and CDI file names");
    }
  }

  /** The registry every meter goes to, and the Prometheus one among them when it is served. */
  private record Registries(MeterRegistry all, PrometheusMeterRegistry prometheus) {

    static Registries of(MeterRegistry given, boolean served) {
      if (!served) {
        return new Registries(given == null ? new SimpleMeterRegistry() : given, null);
      }
      if (given instanceof PrometheusMeterRegistry prometheus) {
        return new Registries(prometheus, prometheus);
      }
      PrometheusMeterRegistry prometheus = PrometheusRegistries.create();
      if (given == null) {
        return new Registries(prometheus, prometheus);
      }
      CompositeMeterRegistry both = new CompositeMeterRegistry();
      both.add(given);
      both.add(prometheus);
      return new Registries(both, prometheus);
    }
  }

  /**
   * Checks the directories the sockets go to, before the driver starts and writes its files (its
   * data directory, CDI specs): a directory the pod does not have stops the start with one line
   * naming it and its setting.
   *
   * @throws PluginStartException naming the directory and its setting
   */
  public void checkDirectories() {
    if (options.services().registrationService()) {
      DirectoryChecks.existing(registrationSocket.getParent(),
          "kubelet plugin registration directory", "KubeletPluginBuilder.registrarDirectory or "
              + PluginEnvironment.REGISTRAR_DIRECTORY);
    }
    if (options.services().draService()) {
      DirectoryChecks.creatable(draSocket.getParent(), "plugin data directory",
          DirectoryChecks.PLUGIN_DATA_DIRECTORY_SETTING);
    }
  }

  /**
   * The settings as one log line, without secrets: the API server's URL but not its credentials.
   *
   * @return the line
   */
  public String describe() {
    Deployment d = options.deployment();
    return "driver " + driverName() + " on node " + (nodeName().isEmpty() ? "(unset)" : nodeName())
        + ": registration socket " + registrationSocket + ", DRA socket " + draSocket
        + ", data directory " + pluginDataDirectory + ", CDI directory " + cdiDirectory
        + ", rolling update " + (d.rollingUpdatePodUid().isEmpty() ? "off" : "pod "
            + d.rollingUpdatePodUid())
        + ", serialized calls " + (options.serialization().enabled() ? "on" : "off")
        + ", services " + supportedServices
        + ", liveness probe " + (d.livenessAddress() == null ? "off" : d.livenessAddress())
        + ", metrics " + (d.metricsAddress() == null ? "off"
            : d.metricsAddress() + options.observability().metricsPath())
        + ", claim cache " + (options.apiServer().claimCache() ? "on" : "off")
        + ", claim status " + (options.apiServer().claimStatus() ? "on" : "off")
        + ", API server " + kubeClient.masterUrl()
        + (ownsKubeClient ? " (client made from the environment)" : "");
  }
}
