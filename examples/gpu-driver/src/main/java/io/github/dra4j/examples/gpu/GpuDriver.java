package io.github.dra4j.examples.gpu;

import io.github.dra4j.cdi.name.Kind;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.examples.gpu.backend.GpuBackend;
import io.github.dra4j.examples.gpu.devices.DeviceCatalog;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.examples.gpu.discovery.DiscoveryException;
import io.github.dra4j.examples.gpu.health.DeviceHealthTracker;
import io.github.dra4j.examples.gpu.health.GpuCondition;
import io.github.dra4j.examples.gpu.prepare.GpuClaimDriver;
import io.github.dra4j.examples.gpu.prepare.GpuClaimState;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.RecoverableException;
import io.github.dra4j.lifecycle.ClaimLifecycle;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPU driver put together: discovers the GPUs once, offers them as a {@link DeviceCatalog},
 * prepares claims through the SDK's claim lifecycle ({@link #lifecycle()}, handed to a {@link
 * KubeletPlugin}), and once {@link #attach attached} to the running plugin publishes the devices
 * and keeps their taints and the kubelet's health stream in step with the backend's health
 * source.
 *
 * <p>Usage: {@code GpuDriver driver = GpuDriver.create(...); KubeletPlugin plugin =
 * KubeletPlugin.builder(driver.lifecycle())...start(); driver.attach(plugin);}. Owns the backend
 * and closes it; the plugin is the caller's.
 */
public final class GpuDriver implements AutoCloseable {

  /** The driver name unless {@code DRIVER_NAME} says otherwise. */
  public static final String DEFAULT_NAME = "gpu.example.com";

  /** The CDI class of the driver's devices; the vendor is {@code k8s.<driver name>}. */
  public static final String CDI_CLASS = "gpu";

  private static final Logger LOG = LoggerFactory.getLogger(GpuDriver.class);

  private final String driverName;
  private final GpuBackend backend;
  private final DeviceCatalog catalog;
  private final DeviceHealthTracker health;
  private final ClaimLifecycle<GpuClaimState> lifecycle;
  private volatile KubeletPlugin plugin;

  private GpuDriver(String driverName, GpuBackend backend, DeviceCatalog catalog,
      boolean deviceStatus, ContainerEdits common) {
    this.driverName = driverName;
    this.backend = backend;
    this.catalog = catalog;
    this.health = new DeviceHealthTracker(driverName, catalog, Clock.systemUTC());
    GpuClaimDriver claims = new GpuClaimDriver(driverName, catalog, backend, deviceStatus,
        (error, message) -> LOG.error("{}", message, error), health);
    this.lifecycle = ClaimLifecycle.builder(claims, GpuClaimState.class)
        .cdiKind(Kind.of("k8s." + driverName, CDI_CLASS))
        .commonDevice("common", common)
        .build();
  }

  /**
   * Finds the GPUs and builds the driver.
   *
   * @param driverName the DRA driver name
   * @param nodeName the node's name: the pool's name
   * @param backend the GPUs' backend, owned by the driver from now on
   * @param layout how the GPUs are offered
   * @param deviceStatus whether to report device status in claims
   * @return the driver, not yet attached
   * @throws DiscoveryException if the backend cannot find the GPUs or the driver files every
   *     container needs (the backend is closed)
   */
  public static GpuDriver create(String driverName, String nodeName, GpuBackend backend,
      DeviceLayout layout, boolean deviceStatus) throws DiscoveryException {
    Objects.requireNonNull(driverName, "driverName");
    Objects.requireNonNull(nodeName, "nodeName");
    try {
      DeviceCatalog catalog = DeviceCatalog.of(nodeName, layout, backend.discovery().discover());
      LOG.info("Found {} GPUs ({}), offered as {} devices", catalog.gpus().size(),
          backend.discovery().describe(), catalog.devices().size());
      ContainerEdits common = ContainerEdits.builder()
          .env("KUBERNETES_NODE_NAME", nodeName)
          .env("DRA_RESOURCE_DRIVER_NAME", driverName)
          .edits(backend.commonEdits())
          .build();
      LOG.info("Every container with a GPU gets {} device nodes, {} mounts and {} hooks of the"
          + " driver", common.deviceNodes().size(), common.mounts().size(),
          common.hooks().size());
      return new GpuDriver(driverName, backend, catalog, deviceStatus, common);
    } catch (DiscoveryException | RuntimeException e) {
      backend.close();
      throw e;
    }
  }

  /**
   * The driver inside the SDK's claim lifecycle, for {@code KubeletPlugin.builder}.
   *
   * @return the lifecycle
   */
  public ClaimLifecycle<GpuClaimState> lifecycle() {
    return lifecycle;
  }

  /**
   * The node's devices.
   *
   * @return the catalog
   */
  public DeviceCatalog catalog() {
    return catalog;
  }

  /**
   * Publishes the devices through the running plugin and starts following the GPUs' health.
   *
   * @param plugin the plugin started with {@link #lifecycle()}
   * @throws Exception if the health source cannot start
   */
  public void attach(KubeletPlugin plugin) throws Exception {
    if (this.plugin != null) {
      throw new IllegalStateException("the driver is attached to a plugin already");
    }
    this.plugin = Objects.requireNonNull(plugin, "plugin");
    publish();
    backend.health().start(this::healthChanged);
  }

  /**
   * The new conditions go to the kubelet's health stream; the plugin publishes the devices again
   * with their taints ({@link DeviceHealthTracker} is the lifecycle's health taints).
   */
  private void healthChanged(List<GpuCondition> conditions) {
    try {
      if (health.update(conditions)) {
        LOG.info("GPU health changed: {}", conditions.isEmpty() ? "all healthy" : conditions);
        plugin.deviceHealth().replaceAll(health.health());
      }
    } catch (RuntimeException e) {
      LOG.error("Cannot report the devices' health", new RecoverableException(e));
    }
  }

  private void publish() {
    KubeletPlugin running = plugin;
    running.deviceHealth().replaceAll(health.health());
    running.publishResources(catalog.resources());
  }

  /** Stops following health and releases the backend; the plugin is the caller's to close. */
  @Override
  public void close() {
    backend.close();
  }

  @Override
  public String toString() {
    return "GpuDriver[" + driverName + ", " + catalog.devices().size() + " devices]";
  }
}
