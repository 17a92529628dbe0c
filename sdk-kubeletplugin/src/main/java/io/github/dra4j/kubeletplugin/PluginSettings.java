package io.github.dra4j.kubeletplugin;

import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.kubelet.wire.ServiceNames;
import io.github.dra4j.kubeletplugin.internal.env.DeferredClient;
import io.github.dra4j.kubeletplugin.internal.metadata.MetadataWriter;
import io.github.dra4j.kubeletplugin.internal.socket.SocketNames;
import io.github.dra4j.metrics.PrometheusRegistries;
import io.grpc.ServerInterceptor;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The builder's options after defaults and derived values are filled in, as the Go helper derives
 * them: the registration socket name (per pod in rolling-update mode), the plugin data directory
 * ({@code <plugins directory>/<driver>}), the DRA socket name and the lock directory (only for
 * serialized calls in rolling-update mode), and the advertised services. Immutable.
 */
record PluginSettings(
    DraDriver driver,
    String driverName,
    DeferredClient kubeClient,
    boolean ownsKubeClient,
    String nodeName,
    String nodeUid,
    Path registrationSocket,
    Path draSocket,
    Path lockDirectory,
    String rollingUpdatePodUid,
    boolean serialize,
    boolean registrationService,
    boolean draService,
    boolean nodeV1,
    boolean nodeV1beta1,
    boolean health,
    List<String> supportedServices,
    List<ServerInterceptor> interceptors,
    MeterRegistry meterRegistry,
    PrometheusMeterRegistry prometheusRegistry,
    boolean logCalls,
    InetSocketAddress livenessAddress,
    InetSocketAddress metricsAddress,
    String metricsPath,
    boolean jvmMetrics,
    Set<PosixFilePermission> socketPermissions,
    int maxClaimsPerCall,
    boolean claimCache,
    boolean claimStatus,
    boolean closeOnShutdown,
    Duration healthRefreshInterval,
    Duration socketCheckInterval,
    MetadataWriter metadata,
    String reconcilePoolWithName,
    boolean readinessAwaitsSlices,
    boolean nodeEvents,
    Duration sliceSyncDelay,
    FatalErrorPolicy fatalErrorPolicy,
    Duration apiServerTimeout,
    Duration shutdownGracePeriod,
    Path pluginDataDirectory,
    Path cdiDirectory,
    Path bootIdSource,
    ServerLimits draSocketLimits,
    ServerLimits registrationSocketLimits,
    ServerLimits livenessProbeLimits,
    HealthTaints healthTaints,
    Duration healthTaintDelay) {

  private static MetadataWriter metadataWriter(KubeletPluginBuilder b, DeferredClient client,
      Path dataDirectory) {
    if (!b.deviceMetadata) {
      return null;
    }
    try {
      return new MetadataWriter(b.driverName, dataDirectory, b.cdiDirectory, b.metadataVersions,
          () -> client.get().getKubernetesSerialization());
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

  static PluginSettings resolve(KubeletPluginBuilder b, DeferredClient client,
      boolean ownsKubeClient) {
    // The API server's rule for driver names (ResourceSlices, claims).
    NameRules.driverName(b.driverName).ifPresent(problem -> {
      throw new PluginStartException(
          "driver name \"" + b.driverName + "\" is invalid: " + problem);
    });
    requireLowerCaseDriverName(b.driverName);
    boolean rolling = !b.rollingUpdatePodUid.isEmpty();
    Path registrarDirectory = b.registrarDirectory.normalize();
    String registrarName = !b.registrarSocketFilename.isEmpty()
        ? b.registrarSocketFilename
        : rolling
            ? SocketNames.rollingUpdateRegistrationSocket(
                registrarDirectory, b.driverName, b.rollingUpdatePodUid)
            : SocketNames.registrationSocket(b.driverName);
    Path dataDirectory = (b.pluginDataDirectory != null
        ? b.pluginDataDirectory
        : KubeletPluginBuilder.DEFAULT_PLUGINS_DIRECTORY.resolve(b.driverName)).normalize();
    String pluginSocket = !b.pluginSocket.isEmpty()
        ? b.pluginSocket
        : rolling
            ? SocketNames.rollingUpdatePluginSocket(dataDirectory, b.rollingUpdatePodUid)
            : SocketNames.DEFAULT_PLUGIN_SOCKET;
    Path lockDirectory = rolling && b.serialize
        ? (b.flockDirectory != null ? b.flockDirectory : dataDirectory).normalize()
        : null;
    boolean health = b.driver.reportsDeviceHealth();
    List<String> services = new ArrayList<>();
    if (b.nodeV1) {
      services.add(ServiceNames.DRA_V1);
    }
    if (b.nodeV1beta1) {
      services.add(ServiceNames.DRA_V1BETA1);
    }
    if (health) {
      services.add(ServiceNames.HEALTH_V1);
      services.add(ServiceNames.HEALTH_V1ALPHA1);
    }
    if (services.isEmpty()) {
      throw new PluginStartException("no supported DRA gRPC API is implemented and enabled");
    }
    HealthTaints healthTaints = b.healthTaints != null ? b.healthTaints : b.driver.healthTaints();
    if (healthTaints != null && !health) {
      throw new PluginStartException("health taints need a driver that reports device health:"
          + " return true from DraDriver.reportsDeviceHealth() (ClaimDriver.reportsDeviceHealth()"
          + " with ClaimLifecycle), or set no KubeletPluginBuilder.healthTaints");
    }
    Registries registries = Registries.of(b.meterRegistry, b.metricsAddress != null);
    return new PluginSettings(
        b.driver, b.driverName, client, ownsKubeClient, b.nodeName, b.nodeUid,
        registrarDirectory.resolve(registrarName), dataDirectory.resolve(pluginSocket),
        lockDirectory, b.rollingUpdatePodUid, b.serialize, b.registrationService, b.draService,
        b.nodeV1, b.nodeV1beta1, health, List.copyOf(services), List.copyOf(b.interceptors),
        registries.all(), registries.prometheus(), b.logCalls, b.livenessAddress,
        b.metricsAddress, b.metricsPath, b.jvmMetrics, Set.copyOf(b.socketPermissions),
        b.maxClaimsPerCall, b.claimCache, b.claimStatus, b.closeOnShutdown,
        b.healthRefreshInterval,
        b.socketCheckInterval, metadataWriter(b, client, dataDirectory), b.reconcilePoolWithName,
        b.readinessAwaitsSlices, b.nodeEvents, b.sliceSyncDelay, b.fatalErrorPolicy,
        b.apiServerTimeout, b.shutdownGracePeriod,
        dataDirectory, b.cdiDirectory.normalize(), b.bootIdSource, b.draSocketLimits,
        b.registrationSocketLimits, b.livenessProbeLimits, healthTaints, b.healthTaintDelay);
  }

  /**
   * The resolved settings as one log line, without secrets: the API server's URL but not its
   * credentials.
   */
  String describe() {
    return "driver " + driverName + " on node " + (nodeName.isEmpty() ? "(unset)" : nodeName)
        + ": registration socket " + registrationSocket + ", DRA socket " + draSocket
        + ", data directory " + pluginDataDirectory + ", CDI directory " + cdiDirectory
        + ", rolling update " + (rollingUpdatePodUid.isEmpty() ? "off" : "pod "
            + rollingUpdatePodUid)
        + ", serialized calls " + (serialize ? "on" : "off")
        + ", services " + supportedServices
        + ", liveness probe " + (livenessAddress == null ? "off" : livenessAddress)
        + ", metrics " + (metricsAddress == null ? "off" : metricsAddress + metricsPath)
        + ", claim cache " + (claimCache ? "on" : "off")
        + ", claim status " + (claimStatus ? "on" : "off")
        + ", API server " + kubeClient.masterUrl()
        + (ownsKubeClient ? " (client made from the environment)" : "");
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
}
