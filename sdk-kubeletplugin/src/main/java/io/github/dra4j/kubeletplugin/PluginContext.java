package io.github.dra4j.kubeletplugin;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.core.stability.KubernetesAlpha;
import io.github.dra4j.kubeletplugin.internal.claims.ApiServerClaimLookup;
import io.github.dra4j.kubeletplugin.spi.ClaimLookup;
import io.github.dra4j.resourceslice.DriverResources;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a starting plugin tells its driver ({@link DraDriver#start}): the settings the driver's
 * own files and threads depend on, resolved once by the plugin's builder, and where to report
 * errors that happen in the driver's background work, its devices' health and their
 * publishing: what a driver, or the claim lifecycle of {@code dra4j-lifecycle} around one, needs
 * without the {@link KubeletPlugin} itself.
 *
 * <p>Immutable; the client and the registry are the plugin's (borrowed from the driver's {@code
 * main}) and stay open while the plugin runs.
 */
public final class PluginContext {

  private final String driverName;
  private final String nodeName;
  private final Path pluginDataDirectory;
  private final Path cdiDirectory;
  private final Path bootIdSource;
  private final Supplier<KubernetesClient> kubeClient;
  private final MeterRegistry meterRegistry;
  private final BiConsumer<Throwable, String> errors;
  private final ClaimStatusReporter claimStatus;
  private final DeviceHealthReporter deviceHealth;
  private final Consumer<DriverResources> publisher;
  private final ClaimLookup claimLookup;

  PluginContext(String driverName, String nodeName, Path pluginDataDirectory, Path cdiDirectory,
      Path bootIdSource, Supplier<KubernetesClient> kubeClient, MeterRegistry meterRegistry,
      BiConsumer<Throwable, String> errors, ClaimStatusReporter claimStatus,
      DeviceHealthReporter deviceHealth, Consumer<DriverResources> publisher) {
    this.driverName = driverName;
    this.nodeName = nodeName;
    this.pluginDataDirectory = pluginDataDirectory;
    this.cdiDirectory = cdiDirectory;
    this.bootIdSource = bootIdSource;
    this.kubeClient = kubeClient;
    this.meterRegistry = meterRegistry;
    this.errors = errors;
    this.claimStatus = claimStatus;
    this.deviceHealth = deviceHealth;
    this.publisher = publisher;
    this.claimLookup = new ApiServerClaimLookup(kubeClient);
  }

  /**
   * Where the driver pushes its devices' health, as {@link KubeletPlugin#deviceHealth()}: the same
   * reporter, usable from {@link DraDriver#start} on. With {@link HealthOptions#taints()
   * health taints} a change also taints or untaints the device in the published slices.
   *
   * @return the reporter
   * @throws IllegalStateException if the driver does not report device health ({@link
   *     DraDriver#reportsDeviceHealth()} is false)
   */
  @KubernetesAlpha(feature = "ResourceHealthStatus", since = "1.34")
  public DeviceHealthReporter deviceHealth() {
    return healthOrFail(deviceHealth, driverName);
  }

  static DeviceHealthReporter healthOrFail(DeviceHealthReporter reporter, String driverName) {
    if (reporter == null) {
      throw new IllegalStateException("driver " + driverName + " does not report device health;"
          + " return true from DraDriver.reportsDeviceHealth() (ClaimDriver.reportsDeviceHealth()"
          + " with ClaimLifecycle) to enable the health service");
    }
    return reporter;
  }

  /**
   * Publishes the driver's devices as ResourceSlices, as {@link KubeletPlugin#publishResources}.
   * Called from {@link DraDriver#start}, before the plugin serves and has its API client, it
   * returns at once and the resources are published as soon as the plugin serves (a publish that
   * cannot start is then reported as a background error); called later, it is {@link
   * KubeletPlugin#publishResources} itself, which waits for the first publish's controller to
   * start.
   *
   * @param resources every pool the driver publishes
   * @throws IllegalStateException as {@link KubeletPlugin#publishResources} (after the start)
   */
  public void publishResources(DriverResources resources) {
    publisher.accept(resources);
  }

  /**
   * Where the driver reports its devices' status in its claims, as {@link
   * KubeletPlugin#claimStatus()}; writes made before the plugin serves are fine.
   *
   * @return the reporter
   * @throws IllegalStateException if claim status is off ({@link ApiServerOptions#claimStatus()})
   */
  public ClaimStatusReporter claimStatus() {
    return claimStatusOrFail(claimStatus, driverName);
  }

  static ClaimStatusReporter claimStatusOrFail(ClaimStatusReporter reporter, String driverName) {
    if (reporter == null) {
      throw new IllegalStateException("claim status is off for driver " + driverName
          + "; turn it on with KubeletPluginBuilder.apiServer(a -> a.withClaimStatus(true))");
    }
    return reporter;
  }

  /**
   * The driver's name.
   *
   * @return for example {@code gpu.example.com}
   */
  public String driverName() {
    return driverName;
  }

  /**
   * The node this plugin runs on.
   *
   * @return the node name, empty when none was set
   */
  public String nodeName() {
    return nodeName;
  }

  /**
   * The plugin data directory, created by the plugin before the driver starts.
   *
   * @return {@code /var/lib/kubelet/plugins/<driver>} unless configured otherwise
   */
  public Path pluginDataDirectory() {
    return pluginDataDirectory;
  }

  /**
   * The CDI spec directory the plugin was configured with ({@link
   * KubeletPluginBuilder#cdiDirectory}).
   *
   * @return {@code /var/run/cdi} unless configured otherwise
   */
  public Path cdiDirectory() {
    return cdiDirectory;
  }

  /**
   * Where the node's boot ID is read ({@link KubeletPluginBuilder#bootIdSource}): a driver that
   * keeps state across restarts compares it with the boot ID it stored, to tell a reboot (which
   * wiped device setup and {@code /var/run}) from a restart of the plugin or the kubelet.
   *
   * @return {@code /proc/sys/kernel/random/boot_id} unless configured otherwise
   */
  public Path bootIdSource() {
    return bootIdSource;
  }

  /**
   * The plugin's Kubernetes client.
   *
   * <p>A client the plugin makes from the environment ({@link KubeletPluginBuilder#fromEnvironment})
   * is made on a thread of its own while the plugin starts, so its sockets are up sooner; this
   * waits for it. A driver that only talks to the API server once it serves calls this then, not
   * in {@link DraDriver#start}, or passes {@code context::kubeClient} on as a supplier.
   *
   * @return the client
   * @throws io.fabric8.kubernetes.client.KubernetesClientException if the client the plugin made
   *     from the environment could not be made (the plugin has then reported a fatal error)
   */
  public KubernetesClient kubeClient() {
    return kubeClient.get();
  }

  /**
   * Reads a claim from the API server as the plugin reads the claims the kubelet names: for a
   * driver that must look at a claim outside a prepare (whether a claim it holds still exists),
   * or that answered {@link DraDriver#isPrepared} with true and finds under its own lock that it
   * needs the claim after all. Uses {@link #kubeClient()}; a read on a thread serving a kubelet
   * call ends by that call's deadline.
   *
   * @return the lookup, the same for the plugin's life
   */
  public ClaimLookup claimLookup() {
    return claimLookup;
  }

  /**
   * Where the plugin's meters are registered; a driver registers its own there too.
   *
   * @return the registry
   */
  public MeterRegistry meterRegistry() {
    return meterRegistry;
  }

  /**
   * Reports an error of the driver's background work the way the plugin reports its own: to
   * {@link DraDriver#handleError} on the plugin's event thread, after which the {@link
   * FatalErrorPolicy} applies unless the error is a {@link RecoverableException}.
   *
   * @param error what went wrong
   * @param message where it happened
   */
  public void reportError(Throwable error, String message) {
    errors.accept(error, message);
  }
}
